import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ZTerminalPaymentInput } from "@/lib/card-payments/schemas";
import { chargeFromTerminal, terminalPaymentScope } from "@/lib/card-payments/terminal";
import { db } from "@/lib/db/client";
import * as gateway from "@/lib/gateway/pix-charges";
import { createPixCharge, getPixChargeView } from "@/lib/pix/charges";
import { upsertPixChargeFromGateway } from "@/lib/pix/mirror";
import { ZCreatePixChargeInput } from "@/lib/pix/schemas";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { useAppDatabase } from "@/lib/testing/pglite";
import { trackDatabaseStatements } from "@/lib/testing/statement-count";
import { testBackends } from "@/lib/testing/test-database";
import type { TSandbox } from "@/sandbox/test/harness";

vi.mock("@/lib/gateway/pix-charges", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/gateway/pix-charges")>();
  return { ...original, createPixCharge: vi.fn(original.createPixCharge) };
});

// A count that grows fails here.
const database = trackDatabaseStatements();
const statementsOf = database.statements;
const resetStatements = database.reset;

describe.each(testBackends)("round trips to the database of what the app creates upstream (%s)", (backend) => {
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

  const pixInput = () =>
    ZCreatePixChargeInput.parse({
      idempotencyKey: randomUUID(),
      amountCents: 2590,
      expirationSeconds: 600,
      debtor: { name: "Fulano de Tal", document: "529.982.247-25" },
      description: "Pedido 42",
    });

  it("is two statements (the key claimed, then the charge, the key's result, the audit entry and the live update at once), a replay two", async () => {
    const charge = pixInput();
    const startedAt = new Date(Date.now() - 1000);
    resetStatements();
    const { txid } = await createPixCharge(charge, context);
    expect(statementsOf()).toHaveLength(2);

    const row = await db.pixCharge.findUniqueOrThrow({ where: { txid } });
    expect(row).toMatchObject({
      status: "ACTIVE",
      amountCents: 2590,
      expirationSeconds: 600,
      debtorName: "Fulano de Tal",
      debtorCpf: "52998224725",
      refundedCents: 0,
      createdById: context.actor.id,
      gatewayCheckedAt: null,
    });
    expect(row.raw).not.toHaveProperty("qrCodeBase64");
    // Stored as Prisma stores a timestamp (UTC wall time): read back, it is now, whatever the session's time zone.
    expect(row.syncedAt.getTime()).toBeGreaterThan(startedAt.getTime());
    expect(row.createdAt.getTime()).toBeLessThan(Date.now() + 1000);
    expect(Math.abs(row.expiresAt.getTime() - row.creationDate.getTime() - 600_000)).toBeLessThan(1000);
    expect((await getPixChargeView(txid))?.pixCopyAndPaste).toMatch(/^000201/);
    const key = await db.idempotencyKey.findUniqueOrThrow({
      where: { scope_key: { scope: "pix_charge", key: charge.idempotencyKey } },
    });
    expect(key).toMatchObject({ status: "SUCCEEDED", resultId: txid, attempts: 1 });
    const audit = await db.auditLog.findFirstOrThrow({ where: { resourceId: txid } });
    expect(audit).toMatchObject({
      action: "pix_charge.created",
      actorId: context.actor.id,
      resourceType: "pix_charge",
    });

    resetStatements();
    expect(await createPixCharge(charge, context)).toEqual({ txid });
    expect(statementsOf()).toHaveLength(2);
    expect(await db.pixCharge.count({ where: { txid } })).toBe(1);
  });

  it("merges a charge the mirror already has (its webhook came first), and still records the key and the audit entry", async () => {
    const actual = await vi.importActual<typeof gateway>("@/lib/gateway/pix-charges");
    vi.mocked(gateway.createPixCharge).mockImplementationOnce(async (body) => {
      const created = await actual.createPixCharge(body);
      await upsertPixChargeFromGateway(created);
      return created;
    });
    const charge = pixInput();
    const { txid } = await createPixCharge(charge, context);
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({
      status: "ACTIVE",
      createdById: context.actor.id,
    });
    const key = await db.idempotencyKey.findUniqueOrThrow({
      where: { scope_key: { scope: "pix_charge", key: charge.idempotencyKey } },
    });
    expect(key).toMatchObject({ status: "SUCCEEDED", resultId: txid });
    expect(await db.auditLog.count({ where: { resourceId: txid, action: "pix_charge.created" } })).toBe(1);
  });
});
