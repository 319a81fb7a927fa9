import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { payLinkByCard, ZCardPaymentInput } from "@/lib/links/pay-page-card";
import { createPaymentLink } from "@/lib/links/payment-links";
import { ZCreatePaymentLinkInput } from "@/lib/links/schemas";
import { getOverview } from "@/lib/overview/overview";
import { resolveOverviewPeriod } from "@/lib/overview/schemas";
import { runPosMatching } from "@/lib/pos/match";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { testBackends, testDatabaseUrl } from "@/lib/testing/test-database";
import type { TSandbox } from "@/sandbox/test/harness";
import { cancelCardPayment } from "./cancel";
import { getCardPaymentView } from "./detail";
import { findCardPayments } from "./list";
import { retryLaterCooldownMs } from "./retry-advice";
import { ZCardPaymentFilters, ZTerminalPaymentInput } from "./schemas";
import { chargeFromTerminal, retryBlockErrorKeys } from "./terminal";

// Sandbox test cards (sandbox/README.md, "Test cards").
const cards = {
  approved: "4111111111111111",
  // codigo "0", status CON, an authorization number, but mensagem "Transacao pendente de confirmacao".
  zeroNotAuthorized: "4000000000000077",
  doNotRetry: "4000000000000002", // 05, advice 03
  retryLater: "4000000000009995", // 51, advice 02
  updateCard: "4000000000000069", // 54, advice 01
} as const;

// The app's `db` on each backend: the worker's PostgreSQL database, then a fresh embedded PGlite.
async function useBackend(backend: (typeof testBackends)[number]): Promise<{ close: () => Promise<void> }> {
  if (backend === "pglite") return useEmbeddedDefaultDatabase();
  await disconnectDb();
  delete process.env.PGLITE_DATA_DIR;
  process.env.DATABASE_URL = testDatabaseUrl();
  return { close: () => disconnectDb() };
}

async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

describe.each(testBackends)("card approval and merchant advice against the sandbox (%s)", (backend) => {
  let sandbox: TSandbox;
  let database: { close: () => Promise<void> };
  let context: { actor: { id: string; email: string }; ip: string; userAgent: string };

  const terminal = (number: string, overrides: Record<string, unknown> = {}) =>
    ZTerminalPaymentInput.parse({
      idempotencyKey: randomUUID(),
      amountCents: 4_321,
      orderId: `VT-APPROVAL-${randomUUID().slice(0, 8)}`,
      installmentType: "3",
      installmentCount: 1,
      card: { kind: "typed", number, expiry: "12/39", securityCode: "123", saveCard: false },
      ...overrides,
    });

  const upstreamStatusOf = async (paymentId: string) =>
    (await sandbox.request("merchant", "GET", `/api/v1/payments/${paymentId}`)).body.status as string;

  const upstreamPaymentCount = async () =>
    ((await sandbox.request("merchant", "GET", "/api/v1/payments?size=1")).body.totalElements as number) ?? 0;

  beforeAll(async () => {
    database = await useBackend(backend);
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
    await database?.close();
  });

  beforeEach(async () => {
    await db.posTransactionReport.deleteMany();
    await db.cardRetryBlock.deleteMany();
    await db.cardPayment.deleteMany();
    await db.idempotencyKey.deleteMany();
    await db.rateLimitBucket.deleteMany();
    await db.auditLog.deleteMany();
    const user = await db.user.upsert({
      where: { email: "approval@example.com" },
      update: {},
      create: { email: "approval@example.com", name: "Approval", passwordHash: "x" },
    });
    context = { actor: { id: user.id, email: user.email }, ip: "203.0.113.21", userAgent: "vitest" };
  });

  describe("codigo 0 with a mensagem other than the authorized one", () => {
    it("is mirrored and audited as a refusal, and listed as refused", async () => {
      const result = await chargeFromTerminal(terminal(cards.zeroNotAuthorized), context);
      expect(result.isApproved).toBe(false);
      const row = await db.cardPayment.findUniqueOrThrow({ where: { id: result.paymentId } });
      // The gateway's status says CON and its codigo says 0: the message alone tells the refusal.
      expect(row).toMatchObject({
        status: "CON",
        responseCode: "0",
        responseMessage: "Transacao pendente de confirmacao",
        isApproved: false,
      });
      expect(row.authorizationNumber).not.toBeNull();
      const audit = await db.auditLog.findMany({ where: { resourceId: result.paymentId } });
      expect(audit.map((entry) => entry.action)).toEqual(["card_payment.refused"]);

      const view = await getCardPaymentView(result.paymentId);
      expect(view).toMatchObject({ statusKind: "refused", canCancel: false });
      const today = resolveOverviewPeriod({ period: "today" });
      const refused = await findCardPayments(
        ZCardPaymentFilters.parse({ from: today.from, to: today.to, status: "refused" }),
      );
      expect(refused.rows.map((payment) => payment.id)).toEqual([result.paymentId]);
      expect(refused.totals?.approved.count).toBe(0);
    });

    it("cannot be cancelled: refused in the mirror, no upstream call", async () => {
      const { paymentId } = await chargeFromTerminal(terminal(cards.zeroNotAuthorized), context);
      const error = await rejectionOf(cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context));
      expect(error).toMatchObject({ code: "CONFLICT", messageKey: "cardPayments.errors.paymentRefused" });
      // The sandbox would have cancelled it (CON): the app never asked.
      expect(await upstreamStatusOf(paymentId)).toBe("CON");
    });

    it("is not matched to a POS sale with its authorization number and NSUs", async () => {
      const { paymentId } = await chargeFromTerminal(terminal(cards.zeroNotAuthorized), context);
      const payment = await db.cardPayment.findUniqueOrThrow({ where: { id: paymentId } });
      const report = await db.posTransactionReport.create({
        data: {
          posId: `pos-${randomUUID().slice(0, 8)}`,
          sellerId: "seller-1",
          tenantId: randomUUID(),
          approved: true,
          codResp: 0,
          nsuGateway: payment.gatewayUsn!,
          nsuHost: payment.hostUsn!,
          cardBrand: "VISA",
          acquirerNetwork: "SANDBOX",
          authorizationCode: payment.authorizationNumber!,
          installments: 1,
          amountCents: payment.amountCents,
          occurredAt: new Date(),
        },
      });
      await runPosMatching();
      const after = await db.posTransactionReport.findUniqueOrThrow({ where: { id: report.id } });
      expect(after.matchStatus).not.toBe("MATCHED");
      expect(after.cardPaymentId).toBeNull();
    });

    it("is counted by the overview as nothing received", async () => {
      await chargeFromTerminal(terminal(cards.approved, { amountCents: 1_000 }), context);
      await chargeFromTerminal(terminal(cards.zeroNotAuthorized, { amountCents: 9_000 }), context);
      const overview = await getOverview(resolveOverviewPeriod({ period: "today" }));
      expect(overview.card).toMatchObject({ count: 1, cents: 1_000, approvedCount: 1 });
    });

    it("is re-classified by the migration when an older mirror stored it approved", async () => {
      const { paymentId } = await chargeFromTerminal(terminal(cards.zeroNotAuthorized), context);
      const { paymentId: approvedId } = await chargeFromTerminal(terminal(cards.approved), context);
      // What the mirror wrote when codigo alone decided.
      await db.cardPayment.update({ where: { id: paymentId }, data: { isApproved: true } });
      const sql = await readFile(
        path.join(process.cwd(), "prisma/migrations/20261126151000_card_payment_approval_by_message/migration.sql"),
        "utf8",
      );
      await db.$executeRawUnsafe(sql);
      expect((await db.cardPayment.findUniqueOrThrow({ where: { id: paymentId } })).isApproved).toBe(false);
      expect((await db.cardPayment.findUniqueOrThrow({ where: { id: approvedId } })).isApproved).toBe(true);
    });
  });

  describe("merchantAdviceCode at the virtual terminal", () => {
    it("03 blocks the same card on the same order for good, before upstream; another order may try", async () => {
      const first = terminal(cards.doNotRetry);
      expect(await chargeFromTerminal(first, context)).toMatchObject({ isApproved: false, merchantAdviceCode: "03" });
      const before = await upstreamPaymentCount();

      const again = terminal(cards.doNotRetry, { orderId: first.orderId });
      const error = await rejectionOf(chargeFromTerminal(again, context));
      expect(error).toMatchObject({ code: "UNPROCESSABLE", messageKey: retryBlockErrorKeys.doNotRetry });
      // Across requests and keys: a fresh form is refused too, and nothing reached the gateway.
      const later = await rejectionOf(
        chargeFromTerminal(terminal(cards.doNotRetry, { orderId: first.orderId }), context),
      );
      expect(later.messageKey).toBe(retryBlockErrorKeys.doNotRetry);
      expect(await upstreamPaymentCount()).toBe(before);

      // Another card on the same order, and the same card on another order, are sent.
      expect((await chargeFromTerminal(terminal(cards.approved, { orderId: first.orderId }), context)).isApproved).toBe(
        true,
      );
      expect((await chargeFromTerminal(terminal(cards.doNotRetry), context)).merchantAdviceCode).toBe("03");
    });

    it("02 waits: refused until the cool-down has passed, with the time it ends", async () => {
      const first = terminal(cards.retryLater);
      const startedAt = Date.now();
      await chargeFromTerminal(first, context);
      const error = await rejectionOf(
        chargeFromTerminal(terminal(cards.retryLater, { orderId: first.orderId }), context),
      );
      expect(error).toMatchObject({ code: "UNPROCESSABLE", message: retryBlockErrorKeys.retryLater });
      const retryAfter = new Date(error.fieldErrors!.retryAfter!).getTime();
      expect(retryAfter).toBeGreaterThanOrEqual(startedAt + retryLaterCooldownMs);
      expect(retryAfter).toBeLessThan(Date.now() + retryLaterCooldownMs + 1_000);

      // The cool-down over, the same card is sent again (and refused again by the sandbox).
      await db.cardRetryBlock.updateMany({ data: { retryAfter: new Date(Date.now() - 1_000) } });
      const retried = await chargeFromTerminal(terminal(cards.retryLater, { orderId: first.orderId }), context);
      expect(retried).toMatchObject({ isApproved: false, merchantAdviceCode: "02" });
    });

    it("01 refuses the same card data again, and lets updated data through", async () => {
      const first = terminal(cards.updateCard);
      await chargeFromTerminal(first, context);
      const error = await rejectionOf(
        chargeFromTerminal(terminal(cards.updateCard, { orderId: first.orderId }), context),
      );
      expect(error).toMatchObject({ code: "UNPROCESSABLE", message: retryBlockErrorKeys.updateCard });
      const updated = terminal(cards.updateCard, {
        orderId: first.orderId,
        card: { kind: "typed", number: cards.updateCard, expiry: "11/38", securityCode: "123", saveCard: false },
      });
      expect((await chargeFromTerminal(updated, context)).merchantAdviceCode).toBe("01");
    });

    it("a blocked form's key stays usable with another card", async () => {
      const first = terminal(cards.doNotRetry);
      await chargeFromTerminal(first, context);
      const blocked = terminal(cards.doNotRetry, { orderId: first.orderId });
      await rejectionOf(chargeFromTerminal(blocked, context));
      const sameKey = terminal(cards.approved, { orderId: first.orderId, idempotencyKey: blocked.idempotencyKey });
      expect((await chargeFromTerminal(sameKey, context)).isApproved).toBe(true);
    });
  });

  describe("merchantAdviceCode on the hosted pay page", () => {
    const payer = { actor: null, ip: "198.51.100.44", userAgent: "vitest" };
    const card = (cardNumber: string, expiry = "12/30") =>
      ZCardPaymentInput.parse({
        cardNumber,
        holderName: "FULANO DE TAL",
        expiry,
        securityCode: "123",
        installments: "1",
      });

    async function newLink(): Promise<string> {
      const input = ZCreatePaymentLinkInput.parse({
        idempotencyKey: randomUUID(),
        payerName: "Fulano de Tal",
        payerDocument: "529.982.247-25",
        amountCents: 2_500,
        installments: 1,
        acceptedMethodCodes: [1, 2],
        expirationDays: 7,
      });
      return (await createPaymentLink(input, { actor: null })).linkPaymentUuid;
    }

    it("03 blocks the second attempt with that card on that link, without asking the gateway", async () => {
      const link = await newLink();
      expect((await payLinkByCard(link, card(cards.doNotRetry), payer)).status).toBe("refused");
      const before = await upstreamPaymentCount();
      expect(await payLinkByCard(link, card(cards.doNotRetry), payer)).toEqual({
        status: "adviceBlocked",
        advice: "doNotRetry",
        retryAfter: null,
      });
      expect(await upstreamPaymentCount()).toBe(before);
      // Another card still pays the link.
      expect((await payLinkByCard(link, card(cards.approved), payer)).status).toBe("paid");
    });

    it("02 makes the payer wait, and says until when", async () => {
      const link = await newLink();
      await payLinkByCard(link, card(cards.retryLater), payer);
      const outcome = await payLinkByCard(link, card(cards.retryLater), payer);
      expect(outcome).toMatchObject({ status: "adviceBlocked", advice: "retryLater" });
      expect(outcome.status === "adviceBlocked" && new Date(outcome.retryAfter!).getTime()).toBeGreaterThan(
        Date.now() + retryLaterCooldownMs - 60_000,
      );
    });

    it("codigo 0 with another mensagem leaves the link unpaid and is mirrored refused", async () => {
      const link = await newLink();
      expect((await payLinkByCard(link, card(cards.zeroNotAuthorized), payer)).status).toBe("refused");
      const payment = await db.cardPayment.findFirstOrThrow({ where: { linkPaymentUuid: link } });
      expect(payment).toMatchObject({ responseCode: "0", isApproved: false });
    });
  });

  it("shows the issuer, the merchant id at the authorizer and the cancellation's receipts", async () => {
    const { paymentId } = await chargeFromTerminal(terminal(cards.approved), context);
    const approved = await getCardPaymentView(paymentId);
    expect(approved?.issuer).toBeTruthy();
    expect(approved?.authorizerMerchantId).toBeTruthy();
    expect(approved?.cancellation).toBeNull();

    const cancelled = await cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context);
    expect(cancelled.cancellation).toMatchObject({ mensagem: "Cancelamento efetuado", isHostCancel: "false" });
    expect(cancelled.cancellation?.authorizationNumber).toMatch(/^\d+$/);
    expect(cancelled.cancellation?.customerReceipt).toContain("VIA CLIENTE");
    expect(cancelled.cancellation?.merchantReceipt).toContain("VIA ESTABELECIMENTO");
  });
});
