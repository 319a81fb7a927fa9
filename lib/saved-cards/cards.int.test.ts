import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { resetGatewayClient } from "@/lib/gateway/http";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { addCardToken, findCardTokens, lookUpCardToken, refreshCardTokensPage, setCardTokenStatus } from "./cards";
import { upsertCardTokenFromGateway } from "./mirror";
import { ZAddCardInput, ZCardTokenFilters } from "./schemas";

// A Luhn-valid number of the given prefix and length: each test saves cards no other test has used.
function cardNumber(prefix: string, length = 16): string {
  let body = prefix;
  while (body.length < length - 1) body += String(Math.floor(Math.random() * 10));
  for (let check = 0; check < 10; check++) {
    const candidate = body + check;
    let sum = 0;
    for (let index = 0; index < candidate.length; index++) {
      let digit = Number(candidate[candidate.length - 1 - index]);
      if (index % 2 === 1) {
        digit *= 2;
        if (digit > 9) digit -= 9;
      }
      sum += digit;
    }
    if (sum % 10 === 0) return candidate;
  }
  throw new Error("unreachable");
}

const expiry = `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, "0")}`;

describe("saved cards (card tokens) against the sandbox", () => {
  let sandbox: TSandbox;
  let context: { actor: { id: string; email: string }; ip: string; userAgent: string };

  // A card saved straight at the sandbox, as another system would.
  const saveAtSandbox = async (numeroCartao: string, bandeiraCartao: string, clientId?: string) => {
    const response = await sandbox.request("merchant", "POST", "/api/v1/cards", {
      numeroCartao,
      dataExpiracao: expiry,
      bandeiraCartao,
      ...(clientId ? { clientId } : {}),
    });
    expect(response.status).toBe(200);
    return response.body as { id: string; token: string };
  };

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await resetGatewayClient();
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.cardToken.deleteMany();
    await db.auditLog.deleteMany();
    await db.user.deleteMany();
    const user = await db.user.create({
      data: { email: "admin@example.com", name: "Admin", passwordHash: "x", roleId: "administrator" },
    });
    context = { actor: { id: user.id, email: user.email }, ip: "203.0.113.9", userAgent: "vitest" };
  });

  it("saves a card, mirrors only its BIN and last four, and never keeps the number", async () => {
    const number = cardNumber("455555");
    const input = ZAddCardInput.parse({ number: number.replace(/(\d{4})/g, "$1 "), expiry, customerId: "cust-1" });
    const result = await addCardToken(input, context);
    expect(result.status).toBe("created");
    const token = (result as { token: string }).token;

    const row = await db.cardToken.findUniqueOrThrow({ where: { token } });
    expect(row).toMatchObject({
      status: "ATV",
      brandCode: "1",
      bin: number.slice(0, 6),
      lastFour: number.slice(-4),
      expiry,
      customerId: "cust-1",
      createdById: context.actor.id,
    });
    expect(row.gatewayId).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.createdAtGateway).toBeInstanceOf(Date);

    // The number is in no column of any card token, nor in the audit log.
    const stored = await db.$queryRaw<{ text: string }[]>`SELECT row_to_json(t)::text AS text FROM "CardToken" t`;
    const audit = await db.$queryRaw<{ text: string }[]>`SELECT row_to_json(a)::text AS text FROM "AuditLog" a`;
    for (const { text } of [...stored, ...audit]) {
      expect(text).not.toContain(number);
      expect(text).not.toContain(number.slice(6, 12));
    }
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "card_token.created" } });
    expect(entry).toMatchObject({ actorId: context.actor.id, resourceType: "card_token", resourceId: token });
    expect(entry.metadata).toMatchObject({ bin: number.slice(0, 6), lastFour: number.slice(-4), brandCode: "1" });
  });

  it("answers a second save of the same card as a duplicate naming the saved token", async () => {
    const number = cardNumber("555555");
    const first = await addCardToken(ZAddCardInput.parse({ number, expiry }), context);
    expect(first.status).toBe("created");
    const again = await addCardToken(ZAddCardInput.parse({ number, expiry }), context);
    expect(again).toEqual({ status: "duplicate", token: (first as { token: string }).token });
    expect(await db.cardToken.count()).toBe(1);
    expect(await db.auditLog.count({ where: { action: "card_token.created" } })).toBe(1);
  });

  it("finds the saved token of a duplicate made elsewhere through the gateway's list", async () => {
    const number = cardNumber("411112");
    const saved = await saveAtSandbox(number, "1");
    expect(await db.cardToken.count()).toBe(0);
    expect(await addCardToken(ZAddCardInput.parse({ number, expiry }), context)).toEqual({
      status: "duplicate",
      token: saved.token,
    });
  });

  it("maps a gateway field refusal onto the form's field", async () => {
    // A past month never passes the form's schema: sent raw, upstream's 400 names dataExpiracao.
    const number = cardNumber("455556");
    await expect(addCardToken({ number, expiry: "01/20", customerId: undefined }, context)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: { expiry: "invalidExpiry" },
    });
  });

  it("disables, refuses a second disable by showing the true state, and enables again", async () => {
    const created = await addCardToken(ZAddCardInput.parse({ number: cardNumber("455557"), expiry }), context);
    const token = (created as { token: string }).token;

    const disabled = await setCardTokenStatus(token, "INA", context);
    expect(disabled).toMatchObject({ status: "changed", card: { token, status: "INA" } });
    expect((await db.cardToken.findUniqueOrThrow({ where: { token } })).status).toBe("INA");

    // The mirror still says ATV (as if another admin disabled it meanwhile): the 409 reads the card again.
    await db.cardToken.update({ where: { token }, data: { status: "ATV", modifiedAtGateway: null } });
    const again = await setCardTokenStatus(token, "INA", context);
    expect(again).toMatchObject({ status: "unchanged", card: { token, status: "INA" } });
    expect((await db.cardToken.findUniqueOrThrow({ where: { token } })).status).toBe("INA");

    const enabled = await setCardTokenStatus(token, "ATV", context);
    expect(enabled).toMatchObject({ status: "changed", card: { status: "ATV" } });
    const actions = (await db.auditLog.findMany({ orderBy: { occurredAt: "asc" } })).map((entry) => entry.action);
    expect(actions).toEqual(["card_token.created", "card_token.disabled", "card_token.enabled"]);
    await expect(setCardTokenStatus("0".repeat(32), "INA", context)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refreshes the mirror from the gateway's list, tokens saved elsewhere included", async () => {
    const elsewhere = await saveAtSandbox(cardNumber("222100"), "2", "cust-elsewhere");
    let page = 0;
    let totalPages = 1;
    let upserted = 0;
    while (page < totalPages) {
      const result = await refreshCardTokensPage({ page });
      ({ totalPages } = result);
      upserted += result.upserted;
      page += 1;
    }
    expect(upserted).toBeGreaterThanOrEqual(1);
    expect(await db.cardToken.findUniqueOrThrow({ where: { token: elsewhere.token } })).toMatchObject({
      brandCode: "2",
      customerId: "cust-elsewhere",
      status: "ATV",
      gatewayId: elsewhere.id,
      createdById: null,
    });
    // A second pass changes nothing.
    expect((await refreshCardTokensPage({ page: 0 })).upserted).toBe(0);

    const list = await findCardTokens(ZCardTokenFilters.parse({ customerId: "elsewhere", brand: "2" }));
    expect(list.rows.map((row) => row.token)).toEqual([elsewhere.token]);
    expect(list.rows[0]).toMatchObject({ brand: "mastercard", isExpired: false });
    expect((await findCardTokens(ZCardTokenFilters.parse({ status: "INA" }))).total).toBe(0);
    for (const sort of ["createdAt", "modifiedAt", "status", "brand", "lastFour"])
      for (const order of ["asc", "desc"])
        expect((await findCardTokens(ZCardTokenFilters.parse({ sort, order }))).total).toBeGreaterThanOrEqual(1);
  });

  it("looks a card up by token and by id, then from the mirror when the gateway does not know it", async () => {
    const saved = await saveAtSandbox(cardNumber("455558"), "1");
    expect(await lookUpCardToken(saved.token)).toEqual({ token: saved.token, source: "gateway" });
    await db.cardToken.deleteMany();
    expect(await lookUpCardToken(saved.id)).toEqual({ token: saved.token, source: "gateway" });
    expect(await db.cardToken.findUniqueOrThrow({ where: { token: saved.token } })).toMatchObject({
      gatewayId: saved.id,
    });

    await expect(lookUpCardToken("f".repeat(32))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(lookUpCardToken("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    // Known only to the mirror (say, the gateway dropped it): the mirror answers.
    await db.cardToken.update({ where: { token: saved.token }, data: { token: "mirror-only-token" } });
    expect(await lookUpCardToken("mirror-only-token")).toEqual({ token: "mirror-only-token", source: "mirror" });
  });

  it("never erases what the mirror knows with a partial answer, and ignores an older Card", async () => {
    const saved = await saveAtSandbox(cardNumber("455559"), "1", "cust-9");
    await lookUpCardToken(saved.token);
    const before = await db.cardToken.findUniqueOrThrow({ where: { token: saved.token } });

    // An enable/disable result without BIN or brand: the row keeps them.
    const written = await upsertCardTokenFromGateway({
      codigo: "0",
      mensagem: null,
      token: saved.token,
      suffix: null,
      bin: null,
      statusCartao: "INA",
      nsua: null,
      nita: null,
      clientId: null,
      bandeiraCartao: null,
    });
    expect(written?.card).toMatchObject({ status: "INA", bin: before.bin, brandCode: "1", customerId: "cust-9" });

    // A Card read before that change (older dataModificacao) does not turn it back.
    const older = new Date(before.modifiedAtGateway!.getTime() - 60_000).toISOString();
    await db.cardToken.update({ where: { token: saved.token }, data: { modifiedAtGateway: before.modifiedAtGateway } });
    const stale = await upsertCardTokenFromGateway({
      id: saved.id,
      statusCard: "ATV",
      bandeiraCartao: "1",
      token: saved.token,
      bin: before.bin,
      suffix: before.lastFour,
      dataExpiracao: expiry,
      customerId: null,
      dataCriacao: older,
      dataModificacao: older,
    });
    expect(stale?.outcome).toBe("stale");
    expect((await db.cardToken.findUniqueOrThrow({ where: { token: saved.token } })).status).toBe("INA");

    // A partial answer cannot start a row.
    expect(
      await upsertCardTokenFromGateway({
        codigo: "0",
        mensagem: null,
        token: "unknown-token",
        suffix: "1111",
        bin: "411111",
        statusCartao: "ATV",
        nsua: null,
        nita: null,
        clientId: null,
        bandeiraCartao: "1",
      }),
    ).toBeNull();
  });
});
