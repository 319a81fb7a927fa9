import { generateKeyPairSync, randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { disconnectDb } from "@/lib/db/client";
import { connectPostgresTestDatabase } from "@/lib/testing/test-database";
import { getPosConfigsForAdmin, resolvePosConfig, savePosConfig } from "./admin-config";
import { ZPosSalesFilters, ZSavePosConfigInput } from "./admin-schemas";
import { setPosStatus } from "./admin-sellers";
import { hashPosApiKey } from "./api-key-format";
import {
  createPosApiKey,
  listPosApiKeys,
  revokePosApiKey,
  rotatePosApiKey,
  setSellerTokenVerification,
} from "./api-keys";
import { jwksResolver } from "./jwks";
import { findUnreportedCardPayments, posMatchBackoff, posMatchGraceMs, runPosMatching } from "./match";
import { findPosSales, getPosSalesTotals } from "./sales";
import { openSellerTokenSecret, openTokenRegistroTls } from "./secrets";

describe("POS admin", () => {
  const database = connectPostgresTestDatabase();
  const db = database.db;
  const context = { actor: { id: null, email: "admin@example.com" }, ip: "127.0.0.1", userAgent: "test" };

  beforeEach(async () => {
    await database.reset();
  });

  afterAll(async () => {
    await database.close();
    await disconnectDb();
  });

  async function seedSeller(tenantId = randomUUID()) {
    const seller = await db.posSeller.create({
      data: { id: `seller-${randomUUID()}`, tenantId, reference: `ref-${randomUUID()}`, subEstablishmentRef: "sub-1" },
    });
    const device = await db.posDevice.create({ data: { posId: `pos-${randomUUID()}`, sellerId: seller.id, tenantId } });
    return { seller, device };
  }

  describe("API keys", () => {
    it("stores only the hash and prefix, shows the key once, and audits", async () => {
      const created = await createPosApiKey({ name: "Loja centro" }, context);
      expect(created.key).toMatch(/^pos_live_/);
      const row = await db.posApiKey.findUniqueOrThrow({ where: { id: created.id } });
      expect(row.keyHash).toBe(hashPosApiKey(created.key));
      expect(row.prefix).toBe(created.prefix);
      expect(JSON.stringify(row)).not.toContain(created.key);

      const listed = await listPosApiKeys();
      expect(listed).toMatchObject([{ id: created.id, prefix: created.prefix, status: "active", sellerCount: 0 }]);
      // The list has no way to show the key again.
      expect(JSON.stringify(listed)).not.toContain(created.key);
      expect(await db.auditLog.findMany()).toMatchObject([
        { action: "pos_api_key.created", resourceType: "pos_api_key", resourceId: created.id },
      ]);
      expect(JSON.stringify(await db.auditLog.findMany())).not.toContain(created.key);
    });

    it("gives each new key its own tenant; a rotated key keeps the tenant and the seller-token secret", async () => {
      const first = await createPosApiKey({ name: "A" }, context);
      const second = await createPosApiKey({ name: "B" }, context);
      expect(second.tenantId).not.toBe(first.tenantId);

      const { secret } = await setSellerTokenVerification({ keyId: first.id, mode: "HS256" }, context);
      expect(secret).toHaveLength(43);
      const firstRow = await db.posApiKey.findUniqueOrThrow({ where: { id: first.id } });
      expect(firstRow.sellerTokenAlgorithm).toBe("HS256");
      expect(firstRow.sellerTokenSecretCiphertext).not.toContain(secret);
      expect(openSellerTokenSecret(firstRow.sellerTokenSecretCiphertext!, first.id)).toBe(secret);

      const rotated = await rotatePosApiKey({ keyId: first.id, name: "A (2)" }, context);
      expect(rotated.tenantId).toBe(first.tenantId);
      expect(rotated.key).not.toBe(first.key);
      const rotatedRow = await db.posApiKey.findUniqueOrThrow({ where: { id: rotated.id } });
      expect(openSellerTokenSecret(rotatedRow.sellerTokenSecretCiphertext!, rotated.id)).toBe(secret);
      // The old key stays valid until revoked.
      expect((await listPosApiKeys()).find((key) => key.id === first.id)?.status).toBe("active");
    });

    it("revokes with an audit entry, refuses twice, and tells expired keys apart", async () => {
      const created = await createPosApiKey({ name: "A" }, context);
      await revokePosApiKey(created.id, context);
      await expect(revokePosApiKey(created.id, context)).rejects.toMatchObject({ code: "CONFLICT" });
      await expect(rotatePosApiKey({ keyId: created.id, name: "B" }, context)).rejects.toMatchObject({
        code: "CONFLICT",
      });
      const expiring = await createPosApiKey({ name: "C", expiresOn: "2099-01-01" }, context);
      const later = new Date("2099-01-02T12:00:00Z");
      const statuses = Object.fromEntries((await listPosApiKeys(later)).map((key) => [key.id, key.status]));
      expect(statuses).toEqual({ [created.id]: "revoked", [expiring.id]: "expired" });
      await expect(createPosApiKey({ name: "D", expiresOn: "2020-01-01" }, context)).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
      });
      expect((await db.auditLog.findMany({ where: { action: "pos_api_key.revoked" } })).length).toBe(1);
    });

    it("accepts an RS256 public key of the right family and refuses anything else", async () => {
      const created = await createPosApiKey({ name: "A" }, context);
      const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "pem" });
      const ec = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey.export({
        type: "spki",
        format: "pem",
      });
      await setSellerTokenVerification(
        { keyId: created.id, mode: "PEM", algorithm: "RS256", publicKey: String(rsa) },
        context,
      );
      await setSellerTokenVerification(
        { keyId: created.id, mode: "PEM", algorithm: "ES256", publicKey: String(ec) },
        context,
      );
      await expect(
        setSellerTokenVerification(
          { keyId: created.id, mode: "PEM", algorithm: "ES256", publicKey: String(rsa) },
          context,
        ),
      ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
      await expect(
        setSellerTokenVerification({ keyId: created.id, mode: "PEM", algorithm: "RS256", publicKey: "nope" }, context),
      ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
      // A JWKS URL must resolve to a public address (no DNS here: the resolver answers).
      await expect(
        setSellerTokenVerification(
          { keyId: created.id, mode: "JWKS", algorithm: "RS256", jwksUrl: "https://10.0.0.1/jwks.json" },
          context,
        ),
      ).rejects.toMatchObject({ code: "VALIDATION_FAILED", fieldErrors: { jwksUrl: "jwksNotPublic" } });
      jwksResolver.resolve = async () => [{ address: "93.184.215.14", family: 4 }];
      try {
        await setSellerTokenVerification(
          { keyId: created.id, mode: "JWKS", algorithm: "RS256", jwksUrl: "https://idp.example.com/jwks.json" },
          context,
        );
      } finally {
        jwksResolver.resolve = undefined;
      }
      expect(await db.posApiKey.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({
        sellerTokenAlgorithm: "RS256",
        sellerTokenJwksUrl: "https://idp.example.com/jwks.json",
        sellerTokenPublicKey: null,
        sellerTokenSecretCiphertext: null,
      });
    });
  });

  describe("transaction configuration", () => {
    const validConfig = {
      empresaGateway: "EMP01",
      enderecoGateway: "pos.gateway.example.com:443",
      cnpjCpf: "12.ABC.345/01DE-35",
      comExterna: "1",
      cnpjAutomacao: "11.222.333/0001-81",
      cnpjFacilitador: "",
      logoUrl: "https://cdn.example.com/logo.png",
      primaryColor: "#0A7A3D",
      secondaryColor: "#ffffff",
    };

    it("validates host:port, CPF/CNPJ (alphanumeric included), https logo and hex colours", () => {
      const check = (fields: Record<string, unknown>) =>
        ZSavePosConfigInput.safeParse({ sellerId: "s", ...validConfig, ...fields });
      expect(check({}).success).toBe(true);
      expect(check({}).data).toMatchObject({
        cnpjCpf: "12ABC34501DE35",
        primaryColor: "#0a7a3d",
        cnpjFacilitador: null,
      });
      for (const enderecoGateway of ["host", "host:0", "host:70000", "300.1.1.1:80", "ho st:80", "http://h:80"])
        expect(check({ enderecoGateway }).success, enderecoGateway).toBe(false);
      for (const enderecoGateway of ["10.0.0.1:8443", "[::1]:443", "a-b.example:1"])
        expect(check({ enderecoGateway }).success, enderecoGateway).toBe(true);
      expect(check({ cnpjCpf: "12ABC34501DE36" }).success).toBe(false);
      expect(check({ cnpjAutomacao: "52998224725" }).success).toBe(false);
      expect(check({ logoUrl: "http://cdn.example.com/logo.png" }).success).toBe(false);
      expect(check({ primaryColor: "red" }).success).toBe(false);
    });

    it("keeps tokenRegistroTls encrypted at rest, replaces it without showing it, and resolves overrides", async () => {
      const { seller, device } = await seedSeller();
      const token = "tls-registration-token-plaintext-1234";
      await savePosConfig(
        ZSavePosConfigInput.parse({
          sellerId: seller.id,
          ...validConfig,
          tokenRegistroTls: { action: "replace", value: token },
        }),
        context,
      );
      const row = await db.posTransactionConfig.findUniqueOrThrow({ where: { sellerId: seller.id } });
      expect(JSON.stringify(row)).not.toContain(token);
      expect(openTokenRegistroTls(row.tokenRegistroTlsCiphertext!, { sellerId: seller.id })).toBe(token);

      // A later save with "keep" leaves the token alone.
      await savePosConfig(ZSavePosConfigInput.parse({ sellerId: seller.id, ...validConfig, comExterna: "2" }), context);
      const kept = await db.posTransactionConfig.findUniqueOrThrow({ where: { sellerId: seller.id } });
      expect(openTokenRegistroTls(kept.tokenRegistroTlsCiphertext!, { sellerId: seller.id })).toBe(token);

      await savePosConfig(
        ZSavePosConfigInput.parse({ sellerId: seller.id, posId: device.posId, primaryColor: "#123456" }),
        context,
      );
      const configs = await getPosConfigsForAdmin(seller.id);
      expect(configs.seller).toMatchObject({ comExterna: "2", hasTokenRegistroTls: true });
      expect(JSON.stringify(configs)).not.toContain(token);
      expect(resolvePosConfig(configs.overrides[device.posId], configs.seller, configs.tenant)).toMatchObject({
        primaryColor: "#123456",
        secondaryColor: "#ffffff",
        enderecoGateway: "pos.gateway.example.com:443",
      });

      const audit = await db.auditLog.findMany({
        where: { action: "pos_config.updated" },
        orderBy: { occurredAt: "asc" },
      });
      expect(audit).toHaveLength(3);
      expect(JSON.stringify(audit)).not.toContain(token);
      expect(audit[0]?.metadata).toMatchObject({ tokenRegistroTls: "replace" });
    });

    it("refuses a PDV of another seller", async () => {
      const { seller } = await seedSeller();
      const other = await seedSeller();
      await expect(
        savePosConfig(ZSavePosConfigInput.parse({ sellerId: seller.id, posId: other.device.posId }), context),
      ).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("blocks and unblocks a seller and a PDV with a reason, audited", async () => {
      const { seller, device } = await seedSeller();
      await setPosStatus({ kind: "seller", id: seller.id, isBlocked: true, reason: "fraud review" }, context);
      await setPosStatus({ kind: "device", id: device.posId, isBlocked: true, reason: "stolen" }, context);
      expect(await db.posSeller.findUniqueOrThrow({ where: { id: seller.id } })).toMatchObject({
        status: "BLOCKED",
        blockedReason: "fraud review",
      });
      await expect(
        setPosStatus({ kind: "seller", id: seller.id, isBlocked: true, reason: "again" }, context),
      ).rejects.toMatchObject({ code: "CONFLICT" });
      await setPosStatus({ kind: "seller", id: seller.id, isBlocked: false }, context);
      expect((await db.posSeller.findUniqueOrThrow({ where: { id: seller.id } })).blockedReason).toBeNull();
      expect((await db.auditLog.findMany()).map((entry) => entry.action).sort()).toEqual([
        "pos_device.blocked",
        "pos_seller.blocked",
        "pos_seller.unblocked",
      ]);
    });
  });

  describe("sales", () => {
    it("filters reports and totals them per São Paulo day and per PDV", async () => {
      const { seller, device } = await seedSeller();
      const base = {
        posId: device.posId,
        sellerId: seller.id,
        tenantId: seller.tenantId,
        codResp: 0,
        nsuHost: "H",
        acquirerNetwork: "REDE",
        authorizationCode: "1",
        installments: 1,
      };
      await db.posTransactionReport.createMany({
        data: [
          // 23:30 in São Paulo on the 19th, though already the 20th in UTC.
          {
            ...base,
            nsuGateway: "1",
            approved: true,
            cardBrand: "VISA",
            amountCents: 1_000,
            occurredAt: new Date("2026-11-20T02:30:00Z"),
          },
          {
            ...base,
            nsuGateway: "2",
            approved: true,
            cardBrand: "MASTERCARD",
            amountCents: 2_500,
            occurredAt: new Date("2026-11-20T15:00:00Z"),
          },
          {
            ...base,
            nsuGateway: "3",
            approved: false,
            cardBrand: "VISA",
            amountCents: 9_000,
            occurredAt: new Date("2026-11-20T16:00:00Z"),
          },
        ],
      });
      const filters = (input: Record<string, string>) => ZPosSalesFilters.parse(input);

      expect((await findPosSales(filters({}))).total).toBe(3);
      expect(
        (await findPosSales(filters({ approved: "yes", brand: "visa" }))).rows.map((row) => row.nsuGateway),
      ).toEqual(["1"]);
      expect((await findPosSales(filters({ minAmount: "20,00", maxAmount: "90" }))).total).toBe(2);
      expect((await findPosSales(filters({ from: "2026-11-20", to: "2026-11-20" }))).total).toBe(2);

      const totals = await getPosSalesTotals(filters({}));
      expect(totals.byDay).toEqual([
        { key: "2026-11-20", count: 2, approvedCount: 1, approvedCents: 2_500 },
        { key: "2026-11-19", count: 1, approvedCount: 1, approvedCents: 1_000 },
      ]);
      expect(totals.byPos).toEqual([{ key: device.posId, count: 3, approvedCount: 2, approvedCents: 3_500 }]);
    });
  });

  describe("matching", () => {
    const now = new Date("2026-11-20T15:00:00Z");
    const old = new Date(now.getTime() - posMatchGraceMs - 60_000);
    let reportCount = 0;

    async function report(fields: { auth: string; nsuHost: string; nsuGateway: string; amountCents: number }) {
      const { seller, device } = await seedSeller();
      reportCount += 1;
      return db.posTransactionReport.create({
        data: {
          posId: device.posId,
          sellerId: seller.id,
          tenantId: seller.tenantId,
          approved: true,
          codResp: 0,
          nsuGateway: fields.nsuGateway,
          nsuHost: fields.nsuHost,
          cardBrand: "VISA",
          acquirerNetwork: "REDE",
          authorizationCode: fields.auth,
          installments: 1,
          amountCents: fields.amountCents,
          occurredAt: old,
          receivedAt: old,
        },
      });
    }

    async function cardPayment(fields: {
      auth: string;
      hostUsn: string;
      gatewayUsn: string;
      amountCents: number;
      origin?: "POS" | "GATEWAY" | "TERMINAL";
    }) {
      return db.cardPayment.create({
        data: {
          id: randomUUID(),
          status: "CON",
          responseCode: "0",
          responseMessage: "Transacao autorizada",
          isApproved: true,
          amountCents: fields.amountCents,
          // The authorizer's response code: never what a report is matched by.
          authorizationCode: "00",
          authorizationNumber: fields.auth,
          hostUsn: fields.hostUsn,
          gatewayUsn: fields.gatewayUsn,
          occurredAt: old,
          origin: fields.origin ?? "POS",
          raw: {},
          syncedAt: old,
        },
      });
    }

    it("matches, flags amount mismatches and missing sales, and lists unreported payments", async () => {
      const matched = await report({ auth: "123456", nsuHost: "H1", nsuGateway: "G1", amountCents: 1_000 });
      const paymentMatched = await cardPayment({ auth: "123456", hostUsn: "H1", gatewayUsn: "G1", amountCents: 1_000 });
      const mismatch = await report({ auth: "222222", nsuHost: "H2", nsuGateway: "G2", amountCents: 2_000 });
      const paymentMismatch = await cardPayment({
        auth: "222222",
        hostUsn: "H2",
        gatewayUsn: "G2",
        amountCents: 2_500,
      });
      // Same authorization number, other NSU: not the same sale.
      const missing = await report({ auth: "333333", nsuHost: "H3", nsuGateway: "G3", amountCents: 3_000 });
      await cardPayment({ auth: "333333", hostUsn: "H9", gatewayUsn: "G9", amountCents: 3_000 });
      const unreported = await cardPayment({ auth: "444444", hostUsn: "H4", gatewayUsn: "G4", amountCents: 4_000 });
      await cardPayment({ auth: "555555", hostUsn: "H5", gatewayUsn: "G5", amountCents: 5_000, origin: "TERMINAL" });

      expect(await runPosMatching(now)).toEqual({ checked: 3, matched: 1, amountMismatch: 1, missing: 1, pending: 0 });
      const byId = async (id: string) => db.posTransactionReport.findUniqueOrThrow({ where: { id } });
      expect(await byId(matched.id)).toMatchObject({ matchStatus: "MATCHED", cardPaymentId: paymentMatched.id });
      expect(await byId(mismatch.id)).toMatchObject({
        matchStatus: "AMOUNT_MISMATCH",
        cardPaymentId: paymentMismatch.id,
      });
      expect(await byId(missing.id)).toMatchObject({ matchStatus: "MISSING_AT_GATEWAY", cardPaymentId: null });

      const notReported = await findUnreportedCardPayments({});
      // The "other NSU" payment and the unreported one; never a terminal sale.
      expect(notReported.map((payment) => payment.authorizationNumber).sort()).toEqual(["333333", "444444"]);
      expect(notReported.map((payment) => payment.id)).toContain(unreported.id);

      // A second pass only re-reads what is not MATCHED, and not the missing one while it waits out its back-off.
      expect(await runPosMatching(now)).toMatchObject({ checked: 1, matched: 0, amountMismatch: 1 });
    });

    it("keeps a fresh report pending, and heals a missing one once the mirror has it", async () => {
      const fresh = await report({ auth: "777777", nsuHost: "H7", nsuGateway: "G7", amountCents: 700 });
      await db.posTransactionReport.update({ where: { id: fresh.id }, data: { receivedAt: now } });
      expect(await runPosMatching(now)).toMatchObject({ pending: 1 });

      const later = new Date(now.getTime() + posMatchGraceMs + 1);
      expect(await runPosMatching(later)).toMatchObject({ missing: 1 });
      await cardPayment({ auth: "777777", hostUsn: "H7", gatewayUsn: "G7", amountCents: 700 });
      expect(await runPosMatching(new Date(later.getTime() + posMatchBackoff.baseMs))).toMatchObject({ matched: 1 });
      expect(reportCount).toBeGreaterThan(0);
    });

    it("never gives one card payment to two reports", async () => {
      await report({ auth: "888888", nsuHost: "H8", nsuGateway: "G8", amountCents: 800 });
      await report({ auth: "888888", nsuHost: "H8", nsuGateway: "G8", amountCents: 800 });
      await cardPayment({ auth: "888888", hostUsn: "H8", gatewayUsn: "G8", amountCents: 800 });
      expect(await runPosMatching(now)).toMatchObject({ matched: 1, missing: 1 });
    });

    it("gives one card payment to one report also when two passes run at once", async () => {
      await report({ auth: "999999", nsuHost: "H9", nsuGateway: "G9", amountCents: 900 });
      await report({ auth: "999999", nsuHost: "H9", nsuGateway: "G9", amountCents: 900 });
      await cardPayment({ auth: "999999", hostUsn: "H9", gatewayUsn: "G9", amountCents: 900 });
      await Promise.all([runPosMatching(now), runPosMatching(now)]);
      expect(await db.posTransactionReport.count({ where: { matchStatus: "MATCHED" } })).toBe(1);
    });
  });
});
