import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as activateRoute } from "@/app/v1/sellers/activate/route";
import { GET as configRoute } from "@/app/v1/transactions/config/route";
import { POST as reportRoute } from "@/app/v1/transactions/route";
import { db, disconnectDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { listenForChanges } from "@/lib/testing/heard-changes";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { type TTestBackend, testBackends, testDatabaseUrl } from "@/lib/testing/test-database";
import { savePosTenantConfig } from "./admin-config";
import { ZSavePosTenantConfigInput, ZSavePosTenantTerminalsInput } from "./admin-schemas";
import { getPosTenantTerminals, savePosTenantTerminals } from "./admin-terminals";
import { generatePosApiKey, hashPosApiKey } from "./api-key-format";
import { forgetJwksCache, jwksResolver } from "./jwks";
import { nextMissingTry, posMatchBackoff, posMatchGraceMs, runPosMatching } from "./match";
import { posRateLimiter } from "./rate-limit";
import { sealSellerTokenSecret } from "./secrets";
import { posSellerTokenAudience, posSellerTokenAudienceFor } from "./seller-token";

// The POS backend's bounds and bindings (docs/pos.md): configuration never answered empty, occurredAt bounds,
// seller tokens bound to their tenant and not issued in the future, the JWKS fetch (public, pinned, capped, 503 with
// a cool-down), and a matching pass that is fair between tenants, backs off and keeps candidates to their tenant.
// Through the route handlers, on PostgreSQL and on PGlite.

const base = "http://127.0.0.1:3000";
const context = { actor: { id: null, email: "admin@example.com" }, ip: "127.0.0.1", userAgent: "test" };

async function useBackend(backend: TTestBackend): Promise<{ close: () => Promise<void> }> {
  if (backend === "pglite") return useEmbeddedDefaultDatabase();
  await disconnectDb();
  delete process.env.PGLITE_DATA_DIR;
  process.env.DATABASE_URL = testDatabaseUrl();
  return { close: () => disconnectDb() };
}

type TKeyOptions = { tenantId?: string; algorithm?: "HS256" | "ES256"; publicKey?: string; jwksUrl?: string };
const hsSecret = randomBytes(32).toString("base64url");

async function createKey(options: TKeyOptions = {}) {
  const id = randomUUID();
  const tenantId = options.tenantId ?? randomUUID();
  const { key, prefix } = generatePosApiKey();
  const algorithm = options.algorithm ?? "HS256";
  await db.posApiKey.create({
    data: {
      id,
      tenantId,
      name: "test",
      prefix,
      keyHash: hashPosApiKey(key),
      sellerTokenAlgorithm: algorithm,
      sellerTokenSecretCiphertext: algorithm === "HS256" ? sealSellerTokenSecret(hsSecret, id) : null,
      sellerTokenPublicKey: options.publicKey,
      sellerTokenJwksUrl: options.jwksUrl,
    },
  });
  return { id, key, tenantId };
}

const hsToken = (claims: JWTPayload = {}) =>
  new SignJWT({ aud: posSellerTokenAudience, sub: `seller-${randomUUID()}`, jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("5m")
    .sign(new TextEncoder().encode(hsSecret));

function request(method: string, path: string, key: string, body?: unknown) {
  return new Request(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function call(response: Promise<Response>) {
  const res = await response;
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const activate = (key: string, sellerToken: string) =>
  call(activateRoute(request("POST", "/v1/sellers/activate", key, { sellerToken })));
const config = (key: string, posId: string) =>
  call(configRoute(request("GET", `/v1/transactions/config?posId=${encodeURIComponent(posId)}`, key)));
const report = (key: string, body: unknown) => call(reportRoute(request("POST", "/v1/transactions", key, body)));

async function activated(key: { key: string }, claims: JWTPayload = {}) {
  const result = await activate(key.key, await hsToken(claims));
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body as { sellerId: string; posId: string; tlsRegistered: boolean };
}

const completeConfig = {
  empresaGateway: "EMP01",
  enderecoGateway: "gw.example.com:443",
  cnpjCpf: "11222333000181",
  comExterna: "1",
  cnpjAutomacao: "11222333000181",
  cnpjFacilitador: "11222333000181",
  tokenRegistroTls: { action: "replace", value: "tenant-tls" },
} as const;

describe.each(testBackends)("POS backend rules (%s)", (backend) => {
  let database: { close: () => Promise<void> };

  beforeAll(async () => {
    database = await useBackend(backend);
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(() => {
    posRateLimiter.reset();
  });

  describe("transaction configuration", () => {
    it("answers 422 naming the missing fields when nothing is configured, never a 200 with empty fields", async () => {
      const key = await createKey();
      const { posId } = await activated(key);
      const result = await config(key.key, posId);
      expect(result.status).toBe(422);
      expect(result.body).toEqual({
        code: 422,
        message: expect.stringMatching(/^transaction configuration not set for this PDV \(missing empresaGateway, /),
      });
      expect(String(result.body?.message)).toContain("tokenRegistroTls");
    });

    it("gives a PDV activated before anyone configured it the tenant's default, under the seller's row", async () => {
      const key = await createKey();
      await savePosTenantConfig(
        ZSavePosTenantConfigInput.parse({ tenantId: key.tenantId, ...completeConfig }),
        context,
      );
      const { posId, sellerId, tlsRegistered } = await activated(key);
      expect(tlsRegistered).toBe(true);
      expect(await config(key.key, posId)).toMatchObject({
        status: 200,
        body: { ...completeConfig, tokenRegistroTls: "tenant-tls" },
      });

      // The seller's row wins field by field; what it leaves empty still comes from the default.
      await db.posTransactionConfig.create({ data: { sellerId, empresaGateway: "SELLER" } });
      expect((await config(key.key, posId)).body).toMatchObject({ empresaGateway: "SELLER", comExterna: "1" });

      // Another tenant's default is never used.
      const other = await createKey();
      const { posId: otherPos } = await activated(other);
      expect((await config(other.key, otherPos)).status).toBe(422);
    });

    it("answers enderecoGateway as host:port: a stored URL is normalised, anything else counts as unset", async () => {
      const key = await createKey();
      await savePosTenantConfig(
        ZSavePosTenantConfigInput.parse({ tenantId: key.tenantId, ...completeConfig }),
        context,
      );
      const { posId } = await activated(key);
      for (const [stored, answered] of [
        ["https://gw.example.com:8443/pos?x=1", "gw.example.com:8443"],
        ["https://gw.example.com", "gw.example.com:443"],
        ["http://[2001:db8::1]", "[2001:db8::1]:80"],
      ] as const) {
        await db.posTransactionConfig.upsert({
          where: { posId },
          create: { posId, enderecoGateway: stored },
          update: { enderecoGateway: stored },
        });
        expect((await config(key.key, posId)).body?.enderecoGateway, stored).toBe(answered);
      }
      await db.posTransactionConfig.update({ where: { posId }, data: { enderecoGateway: "not an address" } });
      expect(await config(key.key, posId)).toMatchObject({
        status: 422,
        body: { message: expect.stringContaining("missing enderecoGateway") },
      });
    });

    it("takes exactly host:port in the admin form of the tenant default", () => {
      const parse = (enderecoGateway: string) =>
        ZSavePosTenantConfigInput.safeParse({ tenantId: randomUUID(), enderecoGateway });
      expect(parse("gw.example.com:443").data?.enderecoGateway).toBe("gw.example.com:443");
      for (const bad of ["https://gw.example.com:8443/", "gw.example.com", "gw.example.com:99999"])
        expect(parse(bad).error?.issues[0]?.message, bad).toBe("invalidHostPort");
    });
  });

  describe("occurredAt", () => {
    it("refuses a sale out of bounds with 400 naming the field, and stores nothing", async () => {
      const key = await createKey();
      const { posId } = await activated(key);
      const day = 24 * 60 * 60_000;
      const sale = (occurredAt: string) => ({
        posId,
        approved: true,
        codResp: 0,
        nsuGateway: `NSU${randomUUID().slice(0, 8)}`,
        nsuHost: "1",
        cardBrand: "VISA",
        acquirerNetwork: "REDE",
        authorizationCode: "1",
        installments: 1,
        amountInCents: 100,
        occurredAt,
      });
      for (const [occurredAt, message] of [
        ["0001-01-01T00:00:00.000Z", "occurredAt is more than 30 days in the past"],
        ["9999-12-31T23:59:59.999Z", "occurredAt is more than 5 minutes in the future"],
        [new Date(Date.now() - 31 * day).toISOString(), "occurredAt is more than 30 days in the past"],
        [new Date(Date.now() + 10 * 60_000).toISOString(), "occurredAt is more than 5 minutes in the future"],
      ] as const) {
        expect(await report(key.key, sale(occurredAt)), occurredAt).toEqual({
          status: 400,
          body: { code: 400, message },
        });
      }
      expect(await db.posTransactionReport.count({ where: { posId } })).toBe(0);
      expect((await report(key.key, sale(new Date(Date.now() - 29 * day).toISOString()))).status).toBe(202);
      expect((await report(key.key, sale(new Date(Date.now() + 60_000).toISOString()))).status).toBe(202);
    });
  });

  describe("seller tokens", () => {
    it("refuses a token issued in the future beyond 30 s of skew", async () => {
      const key = await createKey();
      const now = Math.floor(Date.now() / 1000);
      expect(await activate(key.key, await hsToken({ iat: now + 600 }))).toMatchObject({
        status: 422,
        body: { message: "invalid seller token: issued in the future (iat)" },
      });
      expect((await activate(key.key, await hsToken({ iat: now + 20 }))).status).toBe(200);
    });

    it("binds aud to the tenant: a token for tenant A is refused on tenant B, even with the same public key", async () => {
      const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
      const pem = await exportSPKI(publicKey);
      const tenantA = await createKey({ algorithm: "ES256", publicKey: pem });
      const tenantB = await createKey({ algorithm: "ES256", publicKey: pem });
      const sign = (aud: string) =>
        new SignJWT({ aud, sub: "shared-seller", jti: randomUUID() })
          .setProtectedHeader({ alg: "ES256" })
          .setIssuedAt()
          .setExpirationTime("5m")
          .sign(privateKey);
      const forA = await sign(posSellerTokenAudienceFor(tenantA.tenantId));
      expect(await activate(tenantB.key, forA)).toMatchObject({
        status: 422,
        body: { message: expect.stringMatching(/wrong audience/) },
      });
      expect((await activate(tenantA.key, forA)).status).toBe(200);
      // The bare name binds no tenant: refused for a public-key verifier.
      expect((await activate(tenantA.key, await sign(posSellerTokenAudience))).status).toBe(422);
      // HS256: the secret is this tenant's own; its bound audience works too, another tenant's does not.
      const hs = await createKey();
      expect((await activate(hs.key, await hsToken({ aud: posSellerTokenAudienceFor(hs.tenantId) }))).status).toBe(200);
      expect((await activate(hs.key, await hsToken({ aud: posSellerTokenAudienceFor(tenantA.tenantId) }))).status).toBe(
        422,
      );
    });
  });

  describe("JWKS URL", () => {
    let server: Server;
    let hits = 0;
    let answer: () => string;
    let port = 0;
    const keyPair = generateKeyPair("ES256", { extractable: true });

    beforeAll(async () => {
      server = createServer((_req, res) => {
        hits += 1;
        res.writeHead(200, { "content-type": "application/json" }).end(answer());
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
    beforeEach(async () => {
      hits = 0;
      forgetJwksCache();
      const jwk = { ...(await exportJWK((await keyPair).publicKey)), kid: "k1", alg: "ES256", use: "sig" };
      answer = () => JSON.stringify({ keys: [jwk] });
      process.env.ALLOW_INSECURE_LOCAL_GATEWAY = "1";
    });
    afterEach(() => {
      delete process.env.ALLOW_INSECURE_LOCAL_GATEWAY;
      jwksResolver.resolve = undefined;
    });

    async function jwksActivation(jwksUrl: string) {
      const key = await createKey({ algorithm: "ES256", jwksUrl });
      const token = await new SignJWT({ aud: posSellerTokenAudienceFor(key.tenantId), sub: "s", jti: randomUUID() })
        .setProtectedHeader({ alg: "ES256", kid: "k1" })
        .setExpirationTime("5m")
        .sign((await keyPair).privateKey);
      return activate(key.key, token);
    }
    const unavailable = {
      status: 503,
      body: { code: 503, message: expect.stringMatching(/JWKS.*could not be fetched/) },
    };

    it("fetches a loopback JWKS only under the local allowance, and answers 503 without connecting otherwise", async () => {
      expect((await jwksActivation(`http://127.0.0.1:${port}/jwks.json`)).status).toBe(200);
      expect(hits).toBe(1);
      delete process.env.ALLOW_INSECURE_LOCAL_GATEWAY;
      forgetJwksCache();
      for (const url of [`http://127.0.0.1:${port}/jwks.json`, `https://127.0.0.1:${port}/jwks.json`])
        expect(await jwksActivation(url), url).toMatchObject(unavailable);
      expect(hits).toBe(1);
    });

    it("connects to the address it checked (pinned), and refuses a name that resolves to a private one", async () => {
      // No DNS knows this name: only the checked answer, handed to the socket, can reach the server.
      jwksResolver.resolve = async () => [{ address: "127.0.0.1", family: 4 }];
      expect((await jwksActivation(`http://jwks.pos.invalid:${port}/jwks.json`)).status).toBe(200);
      jwksResolver.resolve = async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "10.0.0.5", family: 4 },
      ];
      expect(await jwksActivation(`https://keys.pos.invalid:${port}/jwks.json`)).toMatchObject(unavailable);
      expect(hits).toBe(1);
    });

    it("cuts an answer over 64 KiB off, answers 503, and remembers the failure for 30 s (no refetch storm)", async () => {
      answer = () => JSON.stringify({ keys: [], padding: "x".repeat(100 * 1024) });
      const url = `http://127.0.0.1:${port}/big.json`;
      expect(await jwksActivation(url)).toMatchObject(unavailable);
      for (let i = 0; i < 5; i += 1) expect(await jwksActivation(url)).toMatchObject(unavailable);
      expect(hits).toBe(1);
    });
  });

  describe("matching pass", () => {
    const now = new Date();
    const old = new Date(now.getTime() - posMatchGraceMs - 60_000);

    // Each case counts what one pass reads: start without the reports of the cases above.
    beforeEach(async () => {
      await db.posTransactionReport.deleteMany();
      await db.cardPayment.deleteMany();
      await db.posTenantTerminal.deleteMany();
    });

    async function seedReports(
      tenantId: string,
      count: number,
      fields: Partial<{ auth: string; nsuHost: string; nsuGateway: string; occurredAt: Date; receivedAt: Date }> = {},
    ) {
      const sellerId = `sel_${randomUUID()}`;
      const posId = `pos_${randomUUID()}`;
      await db.posSeller.create({
        data: { id: sellerId, tenantId, reference: randomUUID(), subEstablishmentRef: "S" },
      });
      await db.posDevice.create({ data: { posId, sellerId, tenantId } });
      const rows = Array.from({ length: count }, (_, index) => ({
        id: randomUUID(),
        posId,
        sellerId,
        tenantId,
        approved: true,
        codResp: 0,
        nsuGateway: fields.nsuGateway ?? `G-${randomUUID()}`,
        nsuHost: fields.nsuHost ?? "H",
        cardBrand: "VISA",
        acquirerNetwork: "REDE",
        authorizationCode: fields.auth ?? `A-${randomUUID().slice(0, 8)}`,
        installments: 1,
        amountCents: 1_000,
        // Newest first: index 0 is the newest.
        occurredAt: fields.occurredAt ?? new Date(old.getTime() - index * 60_000),
        receivedAt: fields.receivedAt ?? old,
      }));
      await db.posTransactionReport.createMany({ data: rows });
      return rows;
    }

    const approvedPayment = (ids: { auth: string; nsuHost: string; nsuGateway: string }, terminalId: string | null) =>
      db.cardPayment.create({
        data: {
          id: randomUUID(),
          status: "CON",
          responseCode: "0",
          responseMessage: "Transacao autorizada",
          isApproved: true,
          amountCents: 1_000,
          authorizationNumber: ids.auth,
          hostUsn: ids.nsuHost,
          gatewayUsn: ids.nsuGateway,
          terminalId,
          occurredAt: old,
          origin: "GATEWAY",
          raw: {},
          syncedAt: old,
        },
      });

    it("shares the budget between tenants in turns, newest first", async () => {
      const busy = await seedReports(randomUUID(), 20);
      const quiet = await seedReports(randomUUID(), 2);
      expect(await runPosMatching(now, { budget: 6 })).toMatchObject({ checked: 6, missing: 6 });
      const checked = await db.posTransactionReport.findMany({
        where: { matchStatus: "MISSING_AT_GATEWAY" },
        select: { id: true },
      });
      const ids = new Set(checked.map((row) => row.id));
      expect(quiet.every((row) => ids.has(row.id))).toBe(true);
      expect(busy.slice(0, 4).every((row) => ids.has(row.id))).toBe(true);
    });

    it("backs off on a report found missing: 5 min, then 10, …; Match now reads it anyway", async () => {
      const [missing] = await seedReports(randomUUID(), 1);
      expect(await runPosMatching(now)).toMatchObject({ checked: 1, missing: 1 });
      const first = await db.posTransactionReport.findUniqueOrThrow({ where: { id: missing!.id } });
      expect(first).toMatchObject({ missingPasses: 1, nextMatchAt: nextMissingTry(1, now) });
      expect(first.nextMatchAt!.getTime() - now.getTime()).toBe(posMatchBackoff.baseMs);

      expect(await runPosMatching(new Date(now.getTime() + 60_000))).toMatchObject({ checked: 0 });
      const later = new Date(now.getTime() + posMatchBackoff.baseMs);
      expect(await runPosMatching(later)).toMatchObject({ checked: 1, missing: 1 });
      const second = await db.posTransactionReport.findUniqueOrThrow({ where: { id: missing!.id } });
      expect(second.missingPasses).toBe(2);
      expect(second.nextMatchAt!.getTime() - later.getTime()).toBe(2 * posMatchBackoff.baseMs);
      expect(await runPosMatching(later, { ignoreBackoff: true })).toMatchObject({ checked: 1 });
    });

    it("tells open pages when a report's match changes, and not on a pass that changes only its next try", async () => {
      const changes = await listenForChanges("pos_sale");
      try {
        const ids = { auth: "515151", nsuHost: "HY", nsuGateway: "GY" };
        const [sale] = await seedReports(randomUUID(), 1, { ...ids, receivedAt: old });
        expect(await runPosMatching(now)).toMatchObject({ missing: 1 });
        expect(await runPosMatching(now, { ignoreBackoff: true })).toMatchObject({ missing: 1 });
        await approvedPayment(ids, null);
        expect(await runPosMatching(now, { ignoreBackoff: true })).toMatchObject({ matched: 1 });
        expect(await changes.heardOf(sale!.id)).toEqual([sale!.id, sale!.id]);
      } finally {
        await changes.close();
      }
    });

    it("gives a payment to the report received first, never to another tenant's report claiming an older sale", async () => {
      const ids = { auth: "424242", nsuHost: "HX", nsuGateway: "GX" };
      const [genuine] = await seedReports(randomUUID(), 1, { ...ids, receivedAt: old });
      // Another tenant reports the same ids later, back-dated to come first in any occurredAt order.
      const [copy] = await seedReports(randomUUID(), 1, {
        ...ids,
        occurredAt: new Date(old.getTime() - 20 * 24 * 60 * 60_000),
        receivedAt: new Date(old.getTime() + 1_000),
      });
      const payment = await approvedPayment(ids, null);
      expect(await runPosMatching(now)).toMatchObject({ matched: 1, missing: 1 });
      expect(await db.posTransactionReport.findUniqueOrThrow({ where: { id: genuine!.id } })).toMatchObject({
        matchStatus: "MATCHED",
        cardPaymentId: payment.id,
      });
      expect(await db.posTransactionReport.findUniqueOrThrow({ where: { id: copy!.id } })).toMatchObject({
        matchStatus: "MISSING_AT_GATEWAY",
        cardPaymentId: null,
      });
      // Later passes (Match now included) never move it to the other tenant.
      await runPosMatching(new Date(now.getTime() + 60 * 60_000), { ignoreBackoff: true });
      expect((await db.posTransactionReport.findUniqueOrThrow({ where: { id: copy!.id } })).cardPaymentId).toBeNull();
    });

    const saveTerminals = (tenantId: string, terminals: string) =>
      savePosTenantTerminals(ZSavePosTenantTerminalsInput.parse({ tenantId, terminals }), context);

    it("never gives a payment on a tenant's terminal to another tenant's report, even one received first", async () => {
      const owner = await createKey();
      const terminal = `T-${randomUUID().slice(0, 8)}`;
      await saveTerminals(owner.tenantId, terminal);
      const ids = { auth: "515151", nsuHost: "HT", nsuGateway: "GT" };
      // The other tenant learnt the sale's ids and reports them before the owner does.
      const [intruder] = await seedReports(randomUUID(), 1, { ...ids, receivedAt: old });
      const [genuine] = await seedReports(owner.tenantId, 1, { ...ids, receivedAt: new Date(old.getTime() + 1_000) });
      const payment = await approvedPayment(ids, terminal);

      expect(await runPosMatching(now)).toMatchObject({ matched: 1, missing: 1 });
      expect(await db.posTransactionReport.findUniqueOrThrow({ where: { id: intruder!.id } })).toMatchObject({
        matchStatus: "MISSING_AT_GATEWAY",
        cardPaymentId: null,
      });
      expect(await db.posTransactionReport.findUniqueOrThrow({ where: { id: genuine!.id } })).toMatchObject({
        matchStatus: "MATCHED",
        cardPaymentId: payment.id,
      });
      await runPosMatching(new Date(now.getTime() + 60 * 60_000), { ignoreBackoff: true });
      expect(await db.posTransactionReport.findUniqueOrThrow({ where: { id: intruder!.id } })).toMatchObject({
        matchStatus: "MISSING_AT_GATEWAY",
        cardPaymentId: null,
      });
    });

    it("matches a payment on an unclaimed terminal, or none, to any tenant's report (a single tenant lists none)", async () => {
      const listing = await createKey();
      await saveTerminals(listing.tenantId, `T-${randomUUID().slice(0, 8)}`);
      const single = randomUUID();
      const cases = [
        { tenantId: single, terminalId: `U-${randomUUID().slice(0, 8)}` },
        { tenantId: single, terminalId: null },
        // A tenant that lists terminals still gets payments on terminals nobody lists.
        { tenantId: listing.tenantId, terminalId: `U-${randomUUID().slice(0, 8)}` },
      ];
      const pairs = [];
      for (const [index, item] of cases.entries()) {
        const ids = { auth: `60606${index}`, nsuHost: `HU${index}`, nsuGateway: `GU${index}` };
        const [sale] = await seedReports(item.tenantId, 1, ids);
        pairs.push({ sale: sale!, payment: await approvedPayment(ids, item.terminalId) });
      }
      expect(await runPosMatching(now)).toMatchObject({ matched: 3, missing: 0 });
      for (const { sale, payment } of pairs) {
        expect(await db.posTransactionReport.findUniqueOrThrow({ where: { id: sale.id } })).toMatchObject({
          matchStatus: "MATCHED",
          cardPaymentId: payment.id,
        });
      }
    });

    it("refuses a terminal another tenant claims, naming it, and replaces a tenant's set with an audit entry", async () => {
      const first = await createKey();
      const second = await createKey();
      const [t1, t2, t3] = ["A", "B", "C"].map((letter) => `${letter}-${randomUUID().slice(0, 8)}`);
      expect(await saveTerminals(first.tenantId, `${t1}, ${t2}`)).toEqual({ added: [t1, t2], removed: [] });

      const refused = await saveTerminals(second.tenantId, `${t3}\n${t2}`).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({
        code: "CONFLICT",
        messageKey: "pos.errors.terminalTaken",
        params: { codes: t2 },
        fieldErrors: { "terminals.1": "terminalTaken" },
      });
      // Nothing of the refused save is kept.
      expect(await getPosTenantTerminals(second.tenantId)).toEqual([]);
      expect(await getPosTenantTerminals(first.tenantId)).toEqual([t1, t2].sort());

      expect(await saveTerminals(first.tenantId, `${t2}\n${t3}`)).toEqual({ added: [t3], removed: [t1] });
      expect(await getPosTenantTerminals(first.tenantId)).toEqual([t2, t3].sort());
      const audit = await db.auditLog.findFirst({
        where: { action: "pos_terminals.updated", resourceId: first.tenantId },
        orderBy: { occurredAt: "desc" },
      });
      expect(audit).toMatchObject({ resourceType: "pos_tenant", metadata: { added: [t3], removed: [t1] } });
      // Released by the first tenant, the code is free for the second.
      expect(await saveTerminals(second.tenantId, t1!)).toEqual({ added: [t1], removed: [] });
      await expect(saveTerminals(randomUUID(), t1!)).rejects.toMatchObject({ code: "NOT_FOUND" });
    });
  });
});
