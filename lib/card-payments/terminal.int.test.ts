import { randomInt, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { passesLuhn } from "@/lib/shared/card";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { type TTerminalPaymentInput, ZTerminalPaymentInput } from "./schemas";
import { chargeFromTerminal, terminalPaymentScope } from "./terminal";

// A Visa number no other test uses: the sandbox authorizes any valid number it does not list.
function sentinelCardNumber(): string {
  const body = `4${Array.from({ length: 14 }, () => randomInt(10)).join("")}`;
  for (let check = 0; check < 10; check++) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error("unreachable");
}

describe("the virtual terminal against the sandbox", () => {
  let sandbox: TSandbox;
  let context: { actor: { id: string; email: string }; ip: string; userAgent: string };
  const usedNumbers = new Set<string>();
  const securityCode = "9173";

  const typed = (number: string, overrides: Partial<TTerminalPaymentInput> = {}, saveCard = false) => {
    usedNumbers.add(number);
    return ZTerminalPaymentInput.parse({
      idempotencyKey: randomUUID(),
      amountCents: 10_001,
      orderId: `VT-TEST-${randomUUID().slice(0, 8)}`,
      installmentType: "4",
      installmentCount: 3,
      card: { kind: "typed", number, expiry: "12/39", securityCode, saveCard },
      ...overrides,
    });
  };

  const upstreamPaymentsOf = async (orderId: string) =>
    (
      (await sandbox.request("merchant", "GET", "/api/v1/payments?size=100&sort=dataAutorizacao,desc")).body
        .content as { id: string; identificadorPagamento: string }[]
    ).filter((payment) => payment.identificadorPagamento === orderId);

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.idempotencyKey.deleteMany({ where: { scope: terminalPaymentScope } });
    await db.auditLog.deleteMany();
    const user = await db.user.upsert({
      where: { email: "terminal@example.com" },
      update: {},
      create: { email: "terminal@example.com", name: "Terminal", passwordHash: "x" },
    });
    context = { actor: { id: user.id, email: user.email }, ip: "203.0.113.7", userAgent: "vitest" };
  });

  it("charges a typed card and mirrors the payment with only its BIN, last four and brand", async () => {
    const input = typed("4111 1111 1111 1111");
    const result = await chargeFromTerminal(input, context);
    expect(result).toMatchObject({ isApproved: true, merchantAdviceCode: null, isReplay: false, cardToken: null });

    const payment = await db.cardPayment.findUniqueOrThrow({
      where: { id: result.paymentId },
      include: { installments: { orderBy: { number: "asc" } } },
    });
    expect(payment).toMatchObject({
      origin: "TERMINAL",
      orderId: input.orderId,
      status: "CON",
      isApproved: true,
      amountCents: 10_001,
      brandCode: "1",
      cardBin: "411111",
      cardLastFour: "1111",
      installmentType: "4",
      installmentCount: 3,
      createdById: context.actor.id,
    });
    expect(payment.installments.map((installment) => installment.amountCents)).toEqual([3335, 3333, 3333]);
    expect(payment.installments.reduce((sum, installment) => sum + installment.amountCents, 0)).toBe(10_001);
    const audit = await db.auditLog.findFirstOrThrow({ where: { resourceId: result.paymentId } });
    expect(audit).toMatchObject({ action: "card_payment.created", actorId: context.actor.id });
    expect(audit.metadata).toMatchObject({ cardLastFour: "1111", installmentCount: 3, amountCents: 10_001 });
  });

  it("charges one installment for a one-payment credit and a debit", async () => {
    for (const installmentType of ["3", "7"] as const) {
      const result = await chargeFromTerminal(
        typed("5555555555554444", { installmentType, installmentCount: 1 }),
        context,
      );
      const payment = await db.cardPayment.findUniqueOrThrow({
        where: { id: result.paymentId },
        include: { installments: true },
      });
      expect(payment).toMatchObject({
        installmentType,
        installmentCount: 1,
        paymentType: installmentType === "7" ? "D" : "C",
      });
      expect(payment.installments).toHaveLength(1);
    }
  });

  it("mirrors a refusal with its advice code and sends the staff to it", async () => {
    const result = await chargeFromTerminal(typed("4000000000009995"), context);
    expect(result).toMatchObject({ isApproved: false, merchantAdviceCode: "02" });
    const payment = await db.cardPayment.findUniqueOrThrow({ where: { id: result.paymentId } });
    expect(payment).toMatchObject({
      origin: "TERMINAL",
      isApproved: false,
      status: "NEG",
      responseCode: "51",
      merchantAdviceCode: "02",
      cardBin: "400000",
      cardLastFour: "9995",
    });
    const audit = await db.auditLog.findFirstOrThrow({ where: { resourceId: result.paymentId } });
    expect(audit.action).toBe("card_payment.refused");
  });

  it("saves the card while paying (admins only), then pays with its token", async () => {
    await expect(chargeFromTerminal(typed("5555555555554444", {}, true), context)).rejects.toMatchObject({
      code: "FORBIDDEN",
      fieldErrors: { "card.saveCard": "saveCardAdminOnly" },
    });

    const saved = await chargeFromTerminal(typed("5555555555554444", {}, true), context, { canSaveCards: true });
    expect(saved.isApproved).toBe(true);
    expect(saved.cardToken).toMatch(/^[0-9a-f]{32}$/);
    const token = saved.cardToken!;
    expect(await db.cardPayment.findUniqueOrThrow({ where: { id: saved.paymentId } })).toMatchObject({
      cardToken: token,
      cardLastFour: "4444",
    });
    // lib/saved-cards/mirror.ts: the saved cards page knows it at once.
    expect(await db.cardToken.findUniqueOrThrow({ where: { token } })).toMatchObject({
      status: "ATV",
      brandCode: "2",
      bin: "555555",
      lastFour: "4444",
    });

    const byToken = await chargeFromTerminal(
      ZTerminalPaymentInput.parse({
        idempotencyKey: randomUUID(),
        amountCents: 2_500,
        orderId: "VT-BY-TOKEN",
        installmentType: "6",
        installmentCount: 2,
        card: { kind: "saved", token },
      }),
      context,
      { canChargeSavedCards: true },
    );
    expect(byToken.isApproved).toBe(true);
    // STAFF (the action passes canChargeSavedCards only for admins) cannot charge it: refused before upstream.
    const paymentsBefore = await db.cardPayment.count();
    await expect(
      chargeFromTerminal(
        ZTerminalPaymentInput.parse({
          idempotencyKey: randomUUID(),
          amountCents: 900_000,
          orderId: "VT-STAFF-TOKEN",
          installmentType: "3",
          installmentCount: 1,
          card: { kind: "saved", token },
        }),
        context,
        { canSaveCards: false, canChargeSavedCards: false },
      ),
    ).rejects.toMatchObject({ code: "FORBIDDEN", fieldErrors: { "card.token": "savedCardAdminOnly" } });
    expect(await db.cardPayment.count()).toBe(paymentsBefore);
    const payment = await db.cardPayment.findUniqueOrThrow({
      where: { id: byToken.paymentId },
      include: { installments: true },
    });
    expect(payment).toMatchObject({
      cardToken: token,
      brandCode: "2",
      cardBin: "555555",
      cardLastFour: "4444",
      installmentType: "6",
      installmentCount: 2,
    });
    expect(payment.installments.map((installment) => installment.amountCents).sort()).toEqual([1250, 1250]);
  });

  it("reads a token the mirror does not know upstream, and refuses an unknown one on its field", async () => {
    const created = await sandbox.request("merchant", "POST", "/api/v1/cards", {
      numeroCartao: "4111111111111111",
      dataExpiracao: "11/38",
      bandeiraCartao: "1",
    });
    // Saved at the gateway by someone else: this app's mirror has never seen it.
    expect(created.status).toBe(200);
    const token = (created.body as { token: string }).token;
    expect(await db.cardToken.count({ where: { token } })).toBe(0);
    const result = await chargeFromTerminal(
      ZTerminalPaymentInput.parse({
        idempotencyKey: randomUUID(),
        amountCents: 1_000,
        orderId: "VT-UNMIRRORED",
        installmentType: "3",
        installmentCount: 1,
        card: { kind: "saved", token },
      }),
      context,
      { canChargeSavedCards: true },
    );
    expect(result.isApproved).toBe(true);
    expect(await db.cardPayment.findUniqueOrThrow({ where: { id: result.paymentId } })).toMatchObject({
      cardBin: "411111",
      cardLastFour: "1111",
      brandCode: "1",
      cardToken: token,
    });

    await expect(
      chargeFromTerminal(
        ZTerminalPaymentInput.parse({
          idempotencyKey: randomUUID(),
          amountCents: 1_000,
          orderId: "VT-UNKNOWN-TOKEN",
          installmentType: "3",
          installmentCount: 1,
          card: { kind: "saved", token: "ffffffffffffffffffffffffffffffff" },
        }),
        context,
        { canChargeSavedCards: true },
      ),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED", fieldErrors: { "card.token": "tokenUnknown" } });
  });

  it("charges once per form: a double click, a retry and a replay all answer the same payment", async () => {
    const input = typed("4111111111111111");
    const [first, second] = await Promise.all([chargeFromTerminal(input, context), chargeFromTerminal(input, context)]);
    expect(second.paymentId).toBe(first.paymentId);
    expect([first.isReplay, second.isReplay].sort()).toEqual([false, true]);
    const replay = await chargeFromTerminal(input, context);
    expect(replay).toMatchObject({ paymentId: first.paymentId, isReplay: true, isApproved: true });
    expect(await upstreamPaymentsOf(input.orderId)).toHaveLength(1);
    expect(await db.cardPayment.count({ where: { orderId: input.orderId } })).toBe(1);

    // The same form with another amount is refused, not charged.
    await expect(chargeFromTerminal({ ...input, amountCents: 20_000 }, context)).rejects.toMatchObject({
      code: "CONFLICT",
      messageKey: "cardPayments.terminal.errors.requestConflict",
    });
    expect(await upstreamPaymentsOf(input.orderId)).toHaveLength(1);
  });

  it("recovers a key left pending by a crash: finds the payment upstream instead of charging again", async () => {
    const input = typed("5555555555554444", { installmentType: "3", installmentCount: 1 });
    // The earlier attempt reached the gateway, then the process died before recording it.
    const earlier = await sandbox.request("merchant", "POST", "/api/v1/payments", {
      identificacaoPagamento: input.orderId,
      numeroParcelas: 1,
      tipoParcelamento: "3",
      bandeiraCartao: "2",
      valor: 100.01,
      numeroCartao: "5555555555554444",
      dataExpiracao: "12/39",
      codigoSeguranca: securityCode,
    });
    expect(earlier.status).toBe(201);
    await db.idempotencyKey.create({
      data: { scope: terminalPaymentScope, key: input.idempotencyKey, lockedUntil: new Date(Date.now() - 1000) },
    });

    const result = await chargeFromTerminal(input, context);
    expect(result.paymentId).toBe((earlier.body as { id: string }).id);
    expect(await upstreamPaymentsOf(input.orderId)).toHaveLength(1);
    const audit = await db.auditLog.findFirstOrThrow({ where: { resourceId: result.paymentId } });
    expect(audit.metadata).toMatchObject({ isRecovery: true });
  });

  it("reports an authorizer failure on the form and keeps nothing; a retry of the same form is safe", async () => {
    const input = typed("4000000000000119");
    const failure = await chargeFromTerminal(input, context).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({
      code: "UPSTREAM_UNAVAILABLE",
      messageKey: "cardPayments.terminal.errors.gatewayUnavailable",
    });
    expect(await db.cardPayment.count({ where: { orderId: input.orderId } })).toBe(0);
    await expect(chargeFromTerminal(input, context)).rejects.toMatchObject({ code: "UPSTREAM_UNAVAILABLE" });
    expect(await upstreamPaymentsOf(input.orderId)).toHaveLength(0);
  });

  it("keeps no card number or security code in any table", async () => {
    const sentinel = sentinelCardNumber();
    const approved = await chargeFromTerminal(typed(sentinel), context);
    expect(approved.isApproved).toBe(true);
    const payment = await db.cardPayment.findUniqueOrThrow({ where: { id: approved.paymentId } });
    expect(payment).toMatchObject({ cardBin: sentinel.slice(0, 6), cardLastFour: sentinel.slice(-4) });
    await chargeFromTerminal(typed("4000000000000002"), context);
    await chargeFromTerminal(typed("4000000000000119"), context).catch(() => null);

    const tables = await db.$queryRaw<{ tablename: string }[]>`
      SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`;
    const found: string[] = [];
    let rowsSearched = 0;
    for (const { tablename } of tables) {
      const rows = await db.$queryRawUnsafe<{ row: string }[]>(
        `SELECT t::text AS row FROM "${tablename.replaceAll('"', '""')}" t`,
      );
      rowsSearched += rows.length;
      for (const { row } of rows) {
        const compact = row.replaceAll(/[\s-]/g, "");
        for (const number of usedNumbers) {
          const digits = number.replaceAll(" ", "");
          if (compact.includes(digits)) found.push(`${tablename}: card number ${digits.slice(-4)}`);
        }
        if (row.includes(`"${securityCode}"`) || row.includes(`:${securityCode},`))
          found.push(`${tablename}: security code`);
      }
    }
    expect(rowsSearched).toBeGreaterThan(0);
    expect(found).toEqual([]);
  });
});
