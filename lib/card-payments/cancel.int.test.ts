import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { GatewayRefusedError, GatewayTimeoutError } from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/payments";
import type { TPaymentTransaction } from "@/lib/gateway/schemas/payment";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import type { TSandbox } from "@/sandbox/test/harness";
import { cancelCardPayment } from "./cancel";
import { findCardPaymentAuditTrail, getCardPaymentView, refreshCardPayment } from "./detail";
import { upsertCardPaymentFromGateway } from "./mirror";

// The real cancel, counted; `lostAnswer` makes it time out after (or instead of) reaching the gateway; `hold` keeps
// it waiting before it is sent.
const upstream = vi.hoisted(() => ({
  lostAnswer: null as null | "after" | "before",
  hold: null as null | { reached: () => void; released: Promise<void> },
}));
vi.mock("@/lib/gateway/payments", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/gateway/payments")>();
  return {
    ...actual,
    cancelPayment: vi.fn(async (paymentId: string) => {
      const timeout = new GatewayTimeoutError("response", 300, { operation: "payments.cancel", transactionId: "t" });
      if (upstream.hold) {
        upstream.hold.reached();
        await upstream.hold.released;
      }
      if (upstream.lostAnswer === "before") throw timeout;
      const result = await actual.cancelPayment(paymentId);
      if (upstream.lostAnswer === "after") throw timeout;
      return result;
    }),
  };
});

const cancelCalls = () => vi.mocked(gateway.cancelPayment).mock.calls.length;

// Holds the next upstream cancels until `release`; `reached` resolves once one of them is waiting.
function holdUpstreamCancel() {
  let reached = () => {};
  let release = () => {};
  const isReached = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  upstream.hold = { reached, released };
  return {
    reached: isReached,
    release: () => {
      upstream.hold = null;
      release();
    },
  };
}

async function pay(cardNumber: string, valor: number, options: { isMirrored?: boolean } = {}) {
  let transaction: TPaymentTransaction;
  try {
    transaction = await gateway.createPayment({
      identificacaoPagamento: randomUUID(),
      numeroParcelas: 1,
      tipoParcelamento: "3",
      bandeiraCartao: cardNumber.startsWith("5") ? "2" : "1",
      valor,
      numeroCartao: cardNumber,
      dataExpiracao: "12/30",
    });
  } catch (error) {
    if (!(error instanceof GatewayRefusedError)) throw error;
    transaction = error.response as TPaymentTransaction;
  }
  if (options.isMirrored !== false)
    await upsertCardPaymentFromGateway(transaction, {
      origin: "TERMINAL",
      cardBin: cardNumber.slice(0, 6),
      cardLastFour: cardNumber.slice(-4),
    });
  return transaction.id;
}

async function rejectionOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("cancelling a card payment against the sandbox", () => {
  let sandbox: TSandbox;
  let context: { actor: { id: string; email: string }; ip: string; userAgent: string };

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    upstream.lostAnswer = null;
    upstream.hold = null;
    vi.mocked(gateway.cancelPayment).mockClear();
    await db.idempotencyKey.deleteMany();
    await db.cardPayment.deleteMany();
    await db.auditLog.deleteMany();
    await db.user.deleteMany();
    const user = await db.user.create({ data: { email: "staff@example.com", name: "Staff", passwordHash: "x" } });
    context = { actor: { id: user.id, email: user.email }, ip: "203.0.113.9", userAgent: "vitest" };
  });

  it('cancels in full and reads the answer\'s cents string (R$ 123,45 → "12345")', async () => {
    const paymentId = await pay("4111111111111111", 123.45);
    const view = await cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context);
    expect(view).toMatchObject({ status: "CAN", statusKind: "cancelled", amountCents: 12_345, cancelledCents: 12_345 });
    expect(view.canCancel).toBe(false);
    expect(cancelCalls()).toBe(1);

    const row = await db.cardPayment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(row.cancellation).toMatchObject({ valor: "12345", status: "CAN" });
    expect(row.cancelledAt).not.toBeNull();
    expect(row.cancelClaimUntil).toBeNull();
    const upstreamPayment = await sandbox.request("merchant", "GET", `/api/v1/payments/${paymentId}`);
    expect(upstreamPayment.body.status).toBe("CAN");

    const audit = await db.auditLog.findMany({ where: { resourceType: "card_payment", resourceId: paymentId } });
    expect(audit.map((entry) => entry.action)).toEqual(["card_payment.cancelled"]);
    expect(audit[0]!.metadata).toMatchObject({ amountCents: 12_345, cancelledCents: 12_345, confirmedBy: "answer" });
    expect(audit[0]!.actorEmail).toBe("staff@example.com");
  });

  it("replays one key: a double click and a retry cancel once", async () => {
    const paymentId = await pay("5555555555554444", 80.01);
    const idempotencyKey = randomUUID();
    const [first, second] = await Promise.all([
      cancelCardPayment({ paymentId, idempotencyKey }, context),
      cancelCardPayment({ paymentId, idempotencyKey }, context),
    ]);
    const third = await cancelCardPayment({ paymentId, idempotencyKey }, context);
    for (const view of [first, second, third]) expect(view).toMatchObject({ status: "CAN", cancelledCents: 8_001 });
    expect(cancelCalls()).toBe(1);
    expect(await db.auditLog.count({ where: { action: "card_payment.cancelled", resourceId: paymentId } })).toBe(1);
  });

  it("two people cancelling at once: one upstream cancel, the other told it is already cancelled", async () => {
    const paymentId = await pay("4111111111111111", 50);
    const results = await Promise.allSettled([
      cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context),
      cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
    const rejected = results.find((result) => result.status === "rejected") as PromiseRejectedResult;
    expect(isAppError(rejected.reason) && [rejected.reason.code, rejected.reason.messageKey]).toEqual([
      "CONFLICT",
      "cardPayments.errors.alreadyCancelled",
    ]);
    expect(cancelCalls()).toBe(1);
  });

  it("refuses to cancel a refused payment, mirrored or known only upstream, without calling the gateway", async () => {
    for (const isMirrored of [true, false]) {
      const paymentId = await pay("4000000000000002", 10, { isMirrored });
      const error = await rejectionOf(cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context));
      expect(isAppError(error) && [error.code, error.messageKey]).toEqual([
        "CONFLICT",
        "cardPayments.errors.paymentRefused",
      ]);
      expect((await getCardPaymentView(paymentId))?.statusKind).toBe("refused");
    }
    expect(cancelCalls()).toBe(0);
  });

  it("a 409 (cancelled elsewhere): reads the payment again and says it is cancelled", async () => {
    const paymentId = await pay("4111111111111111", 20);
    await sandbox.request("merchant", "PUT", `/api/v1/payments/${paymentId}/cancel`);
    const error = await rejectionOf(cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context));
    expect(isAppError(error) && [error.code, error.messageKey]).toEqual([
      "CONFLICT",
      "cardPayments.errors.alreadyCancelled",
    ]);
    expect(cancelCalls()).toBe(1);
    expect(await db.cardPayment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: "CAN",
      cancelledCents: 2_000,
    });
    const audit = await db.auditLog.findMany({ where: { resourceId: paymentId } });
    expect(audit.map((entry) => entry.action)).toEqual(["card_payment.cancel_refused"]);
    expect(audit[0]!.metadata).toMatchObject({ httpStatus: 409 });
  });

  it("the page reads a payment made elsewhere once; a refresh keeps the better origin; an unknown id is null", async () => {
    const elsewhere = await pay("4111111111111111", 99.9, { isMirrored: false });
    expect(await getCardPaymentView(elsewhere)).toMatchObject({
      origin: "GATEWAY",
      statusKind: "approved",
      amountCents: 9_990,
      installmentsTotalCents: 9_990,
      cardLastFour: null,
    });
    expect(await getCardPaymentView(randomUUID())).toBeNull();

    const mine = await pay("5555555555554444", 10);
    expect(await refreshCardPayment(mine)).toMatchObject({
      origin: "TERMINAL",
      cardLastFour: "4444",
      brand: "mastercard",
    });
    await cancelCardPayment({ paymentId: mine, idempotencyKey: randomUUID() }, context);
    expect((await findCardPaymentAuditTrail(mine)).map((entry) => entry.action)).toEqual(["card_payment.cancelled"]);
  });

  it("a lost answer: the payment read again shows it cancelled, so the cancel counts as done", async () => {
    const paymentId = await pay("4111111111111111", 33.33);
    upstream.lostAnswer = "after";
    const view = await cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context);
    expect(view).toMatchObject({ status: "CAN", cancelledCents: 3_333 });
    const audit = await db.auditLog.findFirstOrThrow({ where: { resourceId: paymentId } });
    expect(audit).toMatchObject({ action: "card_payment.cancelled", metadata: { confirmedBy: "read" } });
  });

  it("a timeout before the gateway acted: UPSTREAM_TIMEOUT, and a retry with the same key cancels", async () => {
    const paymentId = await pay("4111111111111111", 12);
    const idempotencyKey = randomUUID();
    upstream.lostAnswer = "before";
    const error = await rejectionOf(cancelCardPayment({ paymentId, idempotencyKey }, context));
    expect(isAppError(error) && [error.code, error.messageKey]).toEqual([
      "UPSTREAM_TIMEOUT",
      "cardPayments.errors.cancelOutcomeUnknown",
    ]);
    expect((await db.cardPayment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe("CON");
    expect(await db.auditLog.count({ where: { action: "card_payment.cancel_failed", resourceId: paymentId } })).toBe(1);
    // The failed attempt freed its claim: the retry need not wait for the lease.
    expect((await db.cardPayment.findUniqueOrThrow({ where: { id: paymentId } })).cancelClaimUntil).toBeNull();

    upstream.lostAnswer = null;
    const view = await cancelCardPayment({ paymentId, idempotencyKey }, context);
    expect(view).toMatchObject({ status: "CAN", cancelledCents: 1_200 });
    expect(cancelCalls()).toBe(2);
  });

  it("a cancel in flight: another key waits for it, then answers that a cancellation is in progress", async () => {
    const paymentId = await pay("4111111111111111", 40);
    const held = holdUpstreamCancel();
    const first = cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context);
    try {
      await held.reached;
      const error = await rejectionOf(
        cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context, { claimWaitMs: 300 }),
      );
      expect(isAppError(error) && [error.code, error.messageKey]).toEqual([
        "CONFLICT",
        "cardPayments.errors.cancelInProgress",
      ]);
    } finally {
      held.release();
    }
    expect(await first).toMatchObject({ status: "CAN", cancelledCents: 4_000 });
    expect(cancelCalls()).toBe(1);
    expect((await db.cardPayment.findUniqueOrThrow({ where: { id: paymentId } })).cancelClaimUntil).toBeNull();
  });

  it("a claim left by a process that died holds the payment until its lease runs out", async () => {
    const paymentId = await pay("5555555555554444", 41);
    await db.cardPayment.update({
      where: { id: paymentId },
      data: { cancelClaimUntil: new Date(Date.now() + 60_000) },
    });
    const error = await rejectionOf(
      cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context, { claimWaitMs: 0 }),
    );
    expect(isAppError(error) && [error.code, error.messageKey]).toEqual([
      "CONFLICT",
      "cardPayments.errors.cancelInProgress",
    ]);
    expect(cancelCalls()).toBe(0);

    await db.cardPayment.update({ where: { id: paymentId }, data: { cancelClaimUntil: new Date(Date.now() - 1) } });
    const view = await cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context);
    expect(view).toMatchObject({ status: "CAN", cancelledCents: 4_100 });
    expect(cancelCalls()).toBe(1);
  });
});

// The embedded default database has one connection: a transaction open across the gateway call would make every
// other request wait for the gateway (or the transaction's timeout).
describe("cancelling a card payment on the embedded PGlite database", () => {
  let sandbox: TSandbox;
  let embedded: { close: () => Promise<void> };
  let context: { actor: { id: string; email: string }; ip: string; userAgent: string };

  beforeAll(async () => {
    embedded = await useEmbeddedDefaultDatabase();
    sandbox = await startGatewaySandbox();
    const user = await db.user.create({ data: { email: "staff@example.com", name: "Staff", passwordHash: "x" } });
    context = { actor: { id: user.id, email: user.email }, ip: "203.0.113.9", userAgent: "vitest" };
  });

  afterAll(async () => {
    upstream.hold = null;
    await sandbox?.stop();
    await embedded?.close();
  });

  it("holds no transaction across the upstream call: other requests are served meanwhile", async () => {
    upstream.lostAnswer = null;
    vi.mocked(gateway.cancelPayment).mockClear();
    const paymentId = await pay("4111111111111111", 77.77);
    const held = holdUpstreamCancel();
    const cancelling = cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context);
    try {
      await held.reached;
      const startedAt = Date.now();
      const users = await Promise.race([db.user.count(), sleep(1_000).then(() => "stalled")]);
      expect(users).toBe(1);
      expect(Date.now() - startedAt).toBeLessThan(1_000);
      const error = await rejectionOf(
        cancelCardPayment({ paymentId, idempotencyKey: randomUUID() }, context, { claimWaitMs: 200 }),
      );
      expect(isAppError(error) && [error.code, error.messageKey]).toEqual([
        "CONFLICT",
        "cardPayments.errors.cancelInProgress",
      ]);
    } finally {
      held.release();
    }
    expect(await cancelling).toMatchObject({ status: "CAN", cancelledCents: 7_777 });
    expect(cancelCalls()).toBe(1);
    const audit = await db.auditLog.findMany({ where: { resourceType: "card_payment", resourceId: paymentId } });
    expect(audit.map((entry) => entry.action)).toEqual(["card_payment.cancelled"]);
  });
});
