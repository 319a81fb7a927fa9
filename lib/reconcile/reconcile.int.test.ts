import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { upsertCardPaymentFromGateway } from "@/lib/card-payments/mirror";
import { db } from "@/lib/db/client";
import { runAsSingleInstance } from "@/lib/db/single-instance";
import { createChangeHub, type TChangeEvent } from "@/lib/events/bus";
import { createPayment as createUpstreamPayment } from "@/lib/gateway/payments";
import { createPixCharge as createUpstreamCharge, getPixCharge } from "@/lib/gateway/pix-charges";
import { requestPixRefund as requestUpstreamRefund } from "@/lib/gateway/pix-refunds";
import { registerWebhook } from "@/lib/gateway/webhooks";
import { upsertPixChargeFromGateway } from "@/lib/pix/mirror";
import { approvedCardRequest } from "@/lib/testing/card-requests";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { testDatabaseUrl } from "@/lib/testing/test-database";
import { truncateAllTables } from "@/lib/testing/truncate-tables";
import { freePort, type TSandbox } from "@/sandbox/test/harness";
import { healMirrorDrift } from "./heal";
import { defineReconcilePass } from "./pass";
import { reconcileLockName, reconcileWindow, runReconciliation, type THealedItem } from "./reconcile";
import { removeUnknownFromMirror } from "./remove-unknown";

describe("reconciliation against the sandbox", () => {
  let sandbox: TSandbox;

  // A charge issued upstream and mirrored as the app saw it at creation (ACTIVE).
  async function mirroredActiveCharge(amount = 25.9): Promise<string> {
    const charge = await createUpstreamCharge({ amount, expiration: 600 });
    await upsertPixChargeFromGateway(charge);
    return charge.txid;
  }

  const pay = (txid: string) =>
    sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`, { payerName: "Beltrana" });

  // Paid in the mirror only, as a forged or restored-from-elsewhere row would be: this sandbox never issued it.
  async function mirroredOnlyPaidCharge(): Promise<string> {
    const txid = `mirroronly${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
    const now = new Date();
    await db.pixCharge.create({
      data: {
        txid,
        amountCents: 50_000,
        status: "PAID",
        paidAmountCents: 50_000,
        paidAt: now,
        creationDate: now,
        expirationSeconds: 600,
        expiresAt: new Date(now.getTime() + 600_000),
        raw: {},
        syncedAt: now,
      },
    });
    return txid;
  }

  // Approved in the mirror only: this sandbox never made it.
  async function mirroredOnlyCardPayment(id: string, occurredAt: Date, amountCents: number): Promise<void> {
    await db.cardPayment.create({
      data: {
        id,
        status: "CON",
        responseCode: "0",
        responseMessage: "Aprovada",
        isApproved: true,
        amountCents,
        occurredAt,
        authorizedAt: occurredAt,
        origin: "TERMINAL",
        raw: {},
        syncedAt: occurredAt,
      },
    });
  }

  beforeAll(async () => {
    // Rows other files of this worker left were issued by other sandboxes: this one would not know them.
    await truncateAllTables(db);
    // Retry waits of 10 s, 30 s, 2 min and 5 min shrink to under half a second: the whole
    // schedule of a lost webhook passes while the test waits.
    sandbox = await startGatewaySandbox({ env: { SANDBOX_RETRY_SCALE: "0.001" } });
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.reconciliationRun.deleteMany();
  });

  // Held once over two runs and audited; Heal changes nothing while the gateway still answers 404.
  async function expectHeldAsUnknown(resourceKind: string, resourceId: string, mirror: Record<string, unknown>) {
    for (const _run of [1, 2])
      expect(await runReconciliation({ trigger: "schedule" })).toMatchObject({
        status: "finished",
        run: { status: "SUCCEEDED" },
      });
    const unknown = Object.fromEntries(Object.keys(mirror).map((field) => [field, null]));
    const drift = await db.mirrorDrift.findMany({ where: { resourceId } });
    expect(drift).toEqual([
      expect.objectContaining({
        resourceKind,
        source: "reconcile",
        healedAt: null,
        fields: ["knownToGateway", ...Object.keys(mirror)],
        mirrorValue: { knownToGateway: true, ...mirror },
        gatewayValue: { knownToGateway: false, ...unknown },
      }),
    ]);
    expect(await db.auditLog.count({ where: { action: "mirror.drift_held", resourceId } })).toBe(1);
    await expect(
      healMirrorDrift(drift[0]!.id, { actor: { id: null, email: "admin@example.com" } }),
    ).rejects.toMatchObject({ code: "CONFLICT", messageKey: "health.drift.errors.unknownAtGateway" });
    expect(await db.mirrorDrift.count({ where: { resourceId, healedAt: null } })).toBe(1);
  }

  it("heals a charge paid without any webhook, records it, and finds nothing the second time", async () => {
    const txid = await mirroredActiveCharge();
    await pay(txid);

    const result = await runReconciliation({ trigger: "schedule" });
    expect(result.status).toBe("finished");
    if (result.status !== "finished") return;
    expect(result.run).toMatchObject({ trigger: "SCHEDULE", status: "SUCCEEDED", healedCount: 1, error: null });
    expect((result.run.scanned as Record<string, number>).pix_charge).toBeGreaterThanOrEqual(1);
    expect(result.run.healed).toEqual([
      { kind: "pix_charge", id: txid, from: "ACTIVE", to: "PAID" },
    ] satisfies THealedItem[]);
    // Through a full read: the payment itself is mirrored, not only the status of the list.
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({
      status: "PAID",
      payerName: "Beltrana",
      paidAmountCents: 2590,
    });

    const again = await runReconciliation({ trigger: "manual", actor: { id: null, email: "admin@example.com" } });
    expect(again).toMatchObject({
      status: "finished",
      run: { trigger: "MANUAL", status: "SUCCEEDED", healedCount: 0, healed: [], actorEmail: "admin@example.com" },
    });
  });

  it("heals a refund the mirror never saw, with its charge's new status, and a charge it never had", async () => {
    const txid = await mirroredActiveCharge(100);
    await pay(txid);
    await upsertPixChargeFromGateway(await getPixCharge(txid));
    const refund = await requestUpstreamRefund({ txid, amount: 40 });
    const unknown = await createUpstreamCharge({ amount: 1, expiration: 600 });

    const result = await runReconciliation({ trigger: "schedule" });
    if (result.status !== "finished") throw new Error("skipped");
    expect(result.run.healed).toEqual(
      expect.arrayContaining([
        { kind: "pix_charge", id: txid, from: "PAID", to: "PARTIALLY REFUNDED" },
        { kind: "pix_refund", id: refund.pixRefundId, from: null, to: "3" },
        { kind: "pix_charge", id: unknown.txid, from: null, to: "ACTIVE" },
      ]),
    );
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({
      status: "PARTIALLY REFUNDED",
      refundedCents: 4000,
    });
    expect(await db.pixRefund.findUniqueOrThrow({ where: { pixRefundId: refund.pixRefundId } })).toMatchObject({
      statusCode: 3,
      amountCents: 4000,
    });
  });

  it("outage: a charge paid while no app received webhooks, past the whole retry schedule, shows paid after reconciliation", async () => {
    const deadPort = await freePort(); // nothing listens there: every attempt fails
    const webhook = await registerWebhook({
      url: `http://127.0.0.1:${deadPort}/api/webhooks/gateway/x`,
      events: ["pix_charge.paid"],
    });
    const hub = createChangeHub({ kind: "postgres", url: testDatabaseUrl() });
    const changes: TChangeEvent[] = [];
    hub.subscribe((event) => changes.push(event));
    await hub.ready();
    try {
      await runReconciliation({ trigger: "schedule" }); // in step with the gateway before the outage
      const txid = await mirroredActiveCharge();
      await pay(txid);
      // The gateway tries 5 times, then discards the delivery for good.
      await expect
        .poll(
          async () => {
            const { body } = await sandbox.request<{ outcome: string }[]>(
              "merchant",
              "GET",
              `/sandbox/v1/webhook-deliveries?webhookId=${webhook.id}`,
            );
            return body.some((attempt) => attempt.outcome === "discarded");
          },
          { timeout: 15_000, interval: 100 },
        )
        .toBe(true);
      expect((await db.pixCharge.findUniqueOrThrow({ where: { txid } })).status).toBe("ACTIVE");

      const result = await runReconciliation({ trigger: "schedule" });
      expect(result).toMatchObject({
        status: "finished",
        run: { healed: [{ kind: "pix_charge", id: txid, from: "ACTIVE", to: "PAID" }] },
      });
      expect((await db.pixCharge.findUniqueOrThrow({ where: { txid } })).status).toBe("PAID");
      // Open pages hear of it through the bus.
      await expect
        .poll(() => changes.some((event) => event.type === "change" && event.change.id === txid), {
          timeout: 5_000,
          interval: 100,
        })
        .toBe(true);
    } finally {
      await hub.close();
    }
  });

  it("holds a paid charge the gateway does not know, once per difference, and heals nothing of it", async () => {
    const listed = await mirroredActiveCharge();
    const unknown = await mirroredOnlyPaidCharge();

    await expectHeldAsUnknown("pix_charge", unknown, { status: "PAID", amountCents: 50_000 });
    expect(await db.mirrorDrift.count({ where: { resourceId: listed } })).toBe(0);
    // The mirror's row is left as it is, for a person to look into.
    expect(await db.pixCharge.findUnique({ where: { txid: unknown } })).toMatchObject({ status: "PAID" });
  });

  it("holds a paid link the gateway does not know, and heals nothing of it", async () => {
    const now = new Date();
    const linkPaymentUuid = crypto.randomUUID();
    await db.paymentLink.create({
      data: {
        linkPaymentUuid,
        linkPaymentId: 999_001,
        statusCode: 3,
        statusDescription: "PAID",
        amountCents: 12_000,
        payerName: "Fulana",
        payerDocument: "12345678909",
        isForeignPayer: false,
        installments: 1,
        installmentOptions: [],
        acceptedMethodCodes: [1],
        paymentUrl: "https://pay.example/link",
        verificationCode: "unused",
        creationDate: now,
        expirationDays: 1,
        expiresAt: new Date(now.getTime() + 86_400_000),
        raw: {},
        syncedAt: now,
      },
    });

    await expectHeldAsUnknown("payment_link", linkPaymentUuid, { statusCode: 3, amountCents: 12_000 });
    expect(await db.paymentLink.findUnique({ where: { linkPaymentUuid } })).toMatchObject({ statusCode: 3 });
  });

  it("holds a returned refund the gateway does not know, on a charge it does, and heals nothing of it", async () => {
    const txid = await mirroredActiveCharge(100);
    await pay(txid);
    await upsertPixChargeFromGateway(await getPixCharge(txid));
    const pixRefundId = `D${Date.now().toString(36)}mirroronly`;
    const now = new Date();
    await db.pixRefund.create({
      data: {
        pixRefundId,
        txid,
        amountCents: 3_000,
        statusCode: 3,
        statusDescription: "RETURNED",
        creationDate: now,
        settlementDate: now,
        raw: {},
        syncedAt: now,
      },
    });

    await expectHeldAsUnknown("pix_refund", pixRefundId, { statusCode: 3, amountCents: 3_000 });
    expect(await db.mirrorDrift.count({ where: { resourceId: txid } })).toBe(0);
    expect(await db.pixRefund.findUnique({ where: { pixRefundId } })).toMatchObject({ statusCode: 3 });
  });

  it("holds an approved card payment the gateway does not know, and not one it knows", async () => {
    const known = await createUpstreamPayment(approvedCardRequest(12.34));
    await upsertCardPaymentFromGateway(known, { origin: "TERMINAL" });
    const id = crypto.randomUUID();
    await mirroredOnlyCardPayment(id, new Date(), 99_900);

    await expectHeldAsUnknown("card_payment", id, { status: "CON", amountCents: 99_900 });
    expect(await db.mirrorDrift.count({ where: { resourceId: known.id } })).toBe(0);
    expect(await db.cardPayment.findUnique({ where: { id } })).toMatchObject({ status: "CON", isApproved: true });
  });

  it("heals by hand a held card payment and a held refund once the gateway knows them", async () => {
    const txid = await mirroredActiveCharge(100);
    await pay(txid);
    await upsertPixChargeFromGateway(await getPixCharge(txid));
    const refund = await requestUpstreamRefund({ txid, amount: 10 });
    const payment = await createUpstreamPayment(approvedCardRequest(5));
    const held = await Promise.all(
      [
        { resourceKind: "pix_refund", resourceId: refund.pixRefundId },
        { resourceKind: "card_payment", resourceId: payment.id },
      ].map((row) =>
        db.mirrorDrift.create({
          data: {
            ...row,
            fields: ["knownToGateway"],
            mirrorValue: { knownToGateway: true },
            gatewayValue: { knownToGateway: false },
            source: "reconcile",
            detectedAt: new Date(),
          },
        }),
      ),
    );

    for (const drift of held)
      expect(await healMirrorDrift(drift.id, { actor: { id: null, email: "admin@example.com" } })).toBe(1);
    expect(await db.pixRefund.findUnique({ where: { pixRefundId: refund.pixRefundId } })).toMatchObject({
      statusCode: 3,
      amountCents: 1_000,
    });
    expect(await db.cardPayment.findUnique({ where: { id: payment.id } })).toMatchObject({
      status: payment.status,
      amountCents: 500,
    });
  });

  it("removes by hand a row the gateway still does not know, and nothing the gateway knows", async () => {
    const admin = { actor: { id: null, email: "admin@example.com" } };
    const unknown = await mirroredOnlyPaidCharge();
    await expectHeldAsUnknown("pix_charge", unknown, { status: "PAID", amountCents: 50_000 });
    const [held] = await db.mirrorDrift.findMany({ where: { resourceId: unknown } });

    expect(await removeUnknownFromMirror(held!.id, admin)).toBe(1);
    expect(await db.pixCharge.findUnique({ where: { txid: unknown } })).toBeNull();
    expect(await db.mirrorDrift.findUnique({ where: { id: held!.id } })).toMatchObject({
      healedAt: expect.any(Date),
      healedByEmail: "admin@example.com",
      removedFromMirror: true,
    });
    expect(
      await db.auditLog.findFirst({ where: { action: "mirror.unknown_removed", resourceId: unknown } }),
    ).toMatchObject({ actorEmail: "admin@example.com", metadata: expect.objectContaining({ isRemoved: true }) });
    await expect(removeUnknownFromMirror(held!.id, admin)).rejects.toMatchObject({
      messageKey: "health.drift.errors.alreadyHealed",
    });
    await runReconciliation({ trigger: "schedule" });
    expect(await db.mirrorDrift.count({ where: { resourceId: unknown } })).toBe(1);

    // A refund the gateway does not know leaves its charge's refunded sum with it.
    const txid = await mirroredActiveCharge(100);
    await pay(txid);
    await upsertPixChargeFromGateway(await getPixCharge(txid));
    const now = new Date();
    const pixRefundId = `D${Date.now().toString(36)}removed`;
    await db.pixRefund.create({
      data: {
        pixRefundId,
        txid,
        amountCents: 2_000,
        statusCode: 3,
        statusDescription: "RETURNED",
        creationDate: now,
        raw: {},
        syncedAt: now,
      },
    });
    await db.pixCharge.update({ where: { txid }, data: { refundedCents: 2_000 } });
    await runReconciliation({ trigger: "schedule" });
    const [refundHeld] = await db.mirrorDrift.findMany({ where: { resourceId: pixRefundId } });
    expect(await removeUnknownFromMirror(refundHeld!.id, admin)).toBe(1);
    expect(await db.pixRefund.findUnique({ where: { pixRefundId } })).toBeNull();
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({ refundedCents: 0 });

    // Known to the gateway by now, or not held as unknown: nothing is removed.
    const payment = await createUpstreamPayment(approvedCardRequest(7));
    await upsertCardPaymentFromGateway(payment, { origin: "TERMINAL" });
    const knownAgain = await db.mirrorDrift.create({
      data: {
        resourceKind: "card_payment",
        resourceId: payment.id,
        fields: ["knownToGateway"],
        mirrorValue: { knownToGateway: true },
        gatewayValue: { knownToGateway: false },
        source: "reconcile",
      },
    });
    await expect(removeUnknownFromMirror(knownAgain.id, admin)).rejects.toMatchObject({
      code: "CONFLICT",
      messageKey: "health.drift.errors.knownAgain",
    });
    const amountHeld = await db.mirrorDrift.create({
      data: {
        resourceKind: "card_payment",
        resourceId: payment.id,
        fields: ["amountCents"],
        mirrorValue: { amountCents: 700 },
        gatewayValue: { amountCents: 800 },
        source: "reconcile",
      },
    });
    await expect(removeUnknownFromMirror(amountHeld.id, admin)).rejects.toMatchObject({
      messageKey: "health.drift.errors.notUnknown",
    });
    expect(await db.cardPayment.findUnique({ where: { id: payment.id } })).not.toBeNull();
  });

  it("a walk cut short before the window's start looks for unlisted rows only as far back as it read", async () => {
    const coveredFrom = new Date("2026-03-10T12:00:00Z");
    const window = { from: new Date("2026-03-01T00:00:00Z"), to: new Date("2026-03-11T00:00:00Z") };
    const mirroredAt = (id: string, occurredAt: Date) => mirroredOnlyCardPayment(id, occurredAt, 1_000);
    await mirroredAt("before-the-cut", new Date("2026-03-05T00:00:00Z"));
    await mirroredAt("listed", new Date("2026-03-10T13:00:00Z"));
    await mirroredAt("unlisted-after-the-cut", new Date("2026-03-10T14:00:00Z"));
    await mirroredAt("after-the-window", new Date("2026-03-12T00:00:00Z"));
    const checked: string[] = [];
    const state = { scanned: {}, healed: [], errors: [], visited: new Set<string>() };
    await reconcileWindow(
      [
        {
          kind: "card_payment",
          pass: defineReconcilePass<{ id: string }>({
            list: async () => ({ content: [{ id: "listed" }], last: true, coveredFrom }),
            heal: async () => {},
            unlisted: {
              idOf: (item) => item.id,
              table: { name: "CardPayment", id: "id", createdAt: "occurredAt" },
              check: async (id) => {
                checked.push(id);
              },
            },
          }),
        },
      ],
      window,
      state,
    );
    expect(checked).toEqual(["unlisted-after-the-cut"]);
    expect(state.errors).toEqual([]);
  });

  it("runs on one instance at a time: a run while another holds the lock is skipped and not recorded", async () => {
    const outer = await runAsSingleInstance(reconcileLockName, () => runReconciliation({ trigger: "schedule" }));
    expect(outer).toEqual({ isAcquired: true, value: { status: "skipped" } });
    expect(await db.reconciliationRun.count()).toBe(0);
    // Released afterwards.
    expect((await runReconciliation({ trigger: "schedule" })).status).toBe("finished");
  });

  it("ends FAILED with the error when the gateway cannot be read, keeping the run on record", async () => {
    const previous = process.env.GATEWAY_BASE_URL;
    const { useGateway } = await import("@/lib/testing/gateway-sandbox");
    await useGateway(`https://127.0.0.1:${await freePort()}`, sandbox.certsDir, "merchant", {
      GATEWAY_GET_RETRIES: "0",
    });
    const unknown = await mirroredOnlyPaidCharge();
    try {
      const result = await runReconciliation({ trigger: "schedule" });
      expect(result).toMatchObject({ status: "finished", run: { status: "FAILED", healedCount: 0 } });
      if (result.status === "finished") expect(result.run.error).toBeTruthy();
      // A list that could not be read names no row: none is taken for unknown to the gateway.
      expect(await db.mirrorDrift.count({ where: { resourceId: unknown } })).toBe(0);
    } finally {
      await useGateway(previous!, sandbox.certsDir);
    }
  });
});
