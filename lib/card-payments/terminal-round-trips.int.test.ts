import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { useAppDatabase } from "@/lib/testing/pglite";
import { trackDatabaseStatements } from "@/lib/testing/statement-count";
import { testBackends } from "@/lib/testing/test-database";
import type { TSandbox } from "@/sandbox/test/harness";
import { ZTerminalPaymentInput } from "./schemas";
import { chargeFromTerminal, terminalPaymentScope } from "./terminal";

const database = trackDatabaseStatements();
const statementsOf = database.statements;
const resetStatements = database.reset;

describe.each(testBackends)("the terminal's round trips to the database (%s)", (backend) => {
  useAppDatabase(backend);
  let sandbox: TSandbox;
  let context: { actor: { id: string; email: string } };

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
    const user = await db.user.create({
      data: { email: `round-trips-${randomUUID()}@example.com`, name: "Round trips", passwordHash: "x" },
    });
    context = { actor: { id: user.id, email: user.email } };
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  const input = (number = "4111111111111111") =>
    ZTerminalPaymentInput.parse({
      idempotencyKey: randomUUID(),
      amountCents: 12_345,
      orderId: `VT-RT-${randomUUID().slice(0, 8)}`,
      installmentType: "4",
      installmentCount: 3,
      card: { kind: "typed", number, expiry: "12/39", securityCode: "123" },
    });

  it("a card payment is two statements (key claimed with the advice read beside it, all recorded at once), a replay three", async () => {
    const payment = input();
    const startedAt = new Date(Date.now() - 1000);
    resetStatements();
    const result = await chargeFromTerminal(payment, context);
    expect(result.isApproved).toBe(true);
    expect(statementsOf()).toHaveLength(2);

    const mirrored = await db.cardPayment.findUniqueOrThrow({
      where: { id: result.paymentId },
      include: { installments: { orderBy: { number: "asc" } } },
    });
    expect(mirrored).toMatchObject({ origin: "TERMINAL", amountCents: 12_345, installmentCount: 3, cardBin: "411111" });
    expect(mirrored.installments.map((row) => row.number)).toEqual([1, 2, 3]);
    expect(mirrored.installments.reduce((sum, row) => sum + row.amountCents, 0)).toBe(12_345);
    // Stored as Prisma stores a timestamp (UTC wall time): read back, it is now, whatever the session's time zone.
    expect(mirrored.syncedAt.getTime()).toBeGreaterThan(startedAt.getTime());
    expect(mirrored.syncedAt.getTime()).toBeLessThan(Date.now() + 1000);
    const key = await db.idempotencyKey.findUniqueOrThrow({
      where: { scope_key: { scope: terminalPaymentScope, key: payment.idempotencyKey } },
    });
    expect(key).toMatchObject({ status: "SUCCEEDED", resultId: result.paymentId, attempts: 1 });
    const audit = await db.auditLog.findFirstOrThrow({ where: { resourceId: result.paymentId } });
    expect(audit).toMatchObject({ action: "card_payment.created", actorId: context.actor.id });
    expect(audit.occurredAt.getTime()).toBeGreaterThan(startedAt.getTime());

    resetStatements();
    const replay = await chargeFromTerminal(payment, context);
    expect(replay).toMatchObject({ paymentId: result.paymentId, isReplay: true });
    expect(statementsOf()).toHaveLength(3);
  });

  it("a refusal writes its advice in the same statement, and the advice refuses the retry before upstream", async () => {
    const refused = input("4000000000009995");
    resetStatements();
    const result = await chargeFromTerminal(refused, context);
    expect(result).toMatchObject({ isApproved: false, merchantAdviceCode: "02" });
    expect(statementsOf()).toHaveLength(2);
    const block = await db.cardRetryBlock.findFirstOrThrow({ where: { paymentId: result.paymentId } });
    expect(block).toMatchObject({ adviceCode: "02", cardBin: "400000", cardLastFour: "9995" });
    expect(block.retryAfter!.getTime()).toBeGreaterThan(Date.now());

    await expect(chargeFromTerminal({ ...refused, idempotencyKey: randomUUID() }, context)).rejects.toMatchObject({
      messageKey: "cardPayments.terminal.errors.adviceRetryLater",
    });
  });
});
