import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { defaultPeriod } from "@/lib/list/period";
import { listMirrorDrift } from "@/lib/reconcile/drift";
import { runReconciliation, type THealedItem } from "@/lib/reconcile/reconcile";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { truncateAllTables } from "@/lib/testing/truncate-tables";
import type { TSandbox } from "@/sandbox/test/harness";
import { getCardPaymentView } from "./detail";
import { upsertCardPaymentFromGateway } from "./mirror";
import { refreshCardPaymentsPage } from "./sync";

// The API sends no card webhooks: a payment made at the gateway by another system reaches the mirror only through
// the reconciler's card pass or a refresh from the list.
describe("card payments made outside the app", () => {
  let sandbox: TSandbox;

  // Straight at the sandbox, as another system would: the app's gateway client is not involved.
  async function payElsewhere(valor: number, cardNumber = "4111111111111111") {
    const answer = await sandbox.request("merchant", "POST", "/api/v1/payments", {
      identificacaoPagamento: `elsewhere-${randomUUID()}`,
      numeroParcelas: 2,
      tipoParcelamento: "4",
      bandeiraCartao: cardNumber.startsWith("5") ? "2" : "1",
      valor,
      numeroCartao: cardNumber,
      dataExpiracao: "12/30",
    });
    expect(answer.status).toBe(201);
    return answer.body as { id: string; identificadorPagamento: string };
  }

  beforeAll(async () => {
    // Rows earlier files of this worker left were issued by other sandboxes: reconciliation would hold them.
    await truncateAllTables(db);
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.reconciliationRun.deleteMany();
    await db.cardPayment.deleteMany();
    await db.mirrorDrift.deleteMany();
  });

  it("appears in the mirror after a reconciliation run, which counts and records it", async () => {
    const made = await payElsewhere(123.45);
    const refused = await payElsewhere(10.01, "4000000000000002");

    const result = await runReconciliation({ trigger: "schedule" });
    expect(result.status).toBe("finished");
    if (result.status !== "finished") return;
    expect(result.run).toMatchObject({
      status: "SUCCEEDED",
      scanned: { card_payment: 2 },
      healedCount: 2,
      error: null,
    });
    expect(result.run.healed).toEqual(
      expect.arrayContaining([
        { kind: "card_payment", id: made.id, from: null, to: "CON" },
        { kind: "card_payment", id: refused.id, from: null, to: "NEG" },
      ] satisfies THealedItem[]),
    );
    expect(await db.cardPayment.findUniqueOrThrow({ where: { id: made.id } })).toMatchObject({
      origin: "GATEWAY",
      orderId: made.identificadorPagamento,
      amountCents: 12345,
      installmentCount: 2,
      cardLastFour: null,
    });
    expect(await db.cardPayment.findUniqueOrThrow({ where: { id: refused.id } })).toMatchObject({
      isApproved: false,
      amountCents: 1001,
    });

    // A cancel made elsewhere is healed by the next run; nothing else changes.
    expect((await sandbox.request("merchant", "PUT", `/api/v1/payments/${made.id}/cancel`)).status).toBe(200);
    const again = await runReconciliation({ trigger: "schedule" });
    if (again.status !== "finished") throw new Error("skipped");
    expect(again.run).toMatchObject({ scanned: { card_payment: 2 }, healedCount: 1 });
    expect(again.run.healed).toEqual([{ kind: "card_payment", id: made.id, from: "CON", to: "CAN" }]);
    expect(await db.cardPayment.findUniqueOrThrow({ where: { id: made.id } })).toMatchObject({
      status: "CAN",
      cancelledCents: 12345,
    });
  });

  it("appears after a refresh from the gateway, which keeps what the app knew of its own payments", async () => {
    const made = await payElsewhere(99.99);
    const own = await payElsewhere(20);
    const ownAnswer = (await sandbox.request("merchant", "GET", `/api/v1/payments/${own.id}`)).body;
    await upsertCardPaymentFromGateway(ownAnswer, { origin: "TERMINAL", cardBin: "411111", cardLastFour: "1111" });

    const upstreamTotal = (await sandbox.request("merchant", "GET", "/api/v1/payments?size=1")).body.totalElements;
    const step = await refreshCardPaymentsPage({ ...defaultPeriod(), page: 0 });
    // Every payment but the one the mirror already had exactly (the sandbox keeps the earlier tests' payments).
    expect(step).toEqual({ page: 0, totalPages: 1, upserted: upstreamTotal - 1, isDone: true });
    expect(await db.cardPayment.findUniqueOrThrow({ where: { id: made.id } })).toMatchObject({
      origin: "GATEWAY",
      amountCents: 9999,
    });
    expect(await db.cardPayment.findUniqueOrThrow({ where: { id: own.id } })).toMatchObject({
      origin: "TERMINAL",
      cardLastFour: "1111",
    });
  });

  it("walks newest first and stops at the first page that reaches past the period's start", async () => {
    // More than one upstream page (100 each).
    await Promise.all(Array.from({ length: 101 }, (_, index) => payElsewhere((100 + index) / 100)));
    const current = await refreshCardPaymentsPage({ ...defaultPeriod(), page: 0 });
    expect(current).toMatchObject({ page: 0, isDone: false });
    expect(current.totalPages).toBeGreaterThanOrEqual(2);
    // A period that starts after every payment: page 0 already reaches past its start, so the walk ends there.
    const later = await refreshCardPaymentsPage({ from: "2099-01-01", to: "2099-01-02", page: 0 });
    expect(later).toMatchObject({ page: 0, isDone: true });
    expect(later.totalPages).toBeGreaterThanOrEqual(2);
  });

  // The never-backwards rule is for snapshots: an authoritative read of a payment the mirror wrongly holds final
  // (cancelled while the gateway says approved) corrects it, and the correction is recorded as drift.
  it("moves a payment the mirror holds cancelled back to approved on a refresh and on reconciliation, recording the drift", async () => {
    const made = await payElsewhere(50.5);
    const forgeCancelled = () =>
      db.cardPayment.update({ where: { id: made.id }, data: { status: "CAN", cancelledCents: 5050 } });
    await runReconciliation({ trigger: "schedule" });
    await forgeCancelled();

    const refreshed = await getCardPaymentView(made.id, { refresh: true });
    expect(refreshed?.status).toBe("CON");
    expect(await db.cardPayment.findUniqueOrThrow({ where: { id: made.id } })).toMatchObject({ status: "CON" });

    await forgeCancelled();
    const result = await runReconciliation({ trigger: "schedule" });
    expect(result.status).toBe("finished");
    expect(await db.cardPayment.findUniqueOrThrow({ where: { id: made.id } })).toMatchObject({ status: "CON" });

    const drifts = await listMirrorDrift({ resourceKind: "card_payment", resourceId: made.id });
    expect(drifts.map((drift) => drift.source).sort()).toEqual(["reconcile", "refresh"]);
    expect(drifts[0]).toMatchObject({ mirrorValue: { status: "CAN" }, gatewayValue: { status: "CON" } });
    const audited = await db.auditLog.count({ where: { action: "mirror.drift_corrected", resourceId: made.id } });
    expect(audited).toBe(2);
  });
});
