import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { createPaymentLink } from "@/lib/gateway/payment-links";
import { createPixCharge } from "@/lib/gateway/pix-charges";
import { upsertPaymentLinkFromGateway } from "@/lib/links/mirror";
import { syncPixChargeFromGateway, upsertPixChargeFromGateway } from "@/lib/pix/mirror";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { useAppDatabase } from "@/lib/testing/pglite";
import { type TTestBackend, testBackends } from "@/lib/testing/test-database";
import { truncateAllTables } from "@/lib/testing/truncate-tables";
import type { TSandbox } from "@/sandbox/test/harness";
import { listMirrorDrift } from "./drift";
import { healMirrorDrift, listDriftPage } from "./heal";
import { runReconciliation } from "./reconcile";

const operator = { actor: { id: null, email: "ops@example.com" } };

describe.each<TTestBackend>(testBackends)("drift held, healed automatically and by hand (%s)", (backend) => {
  useAppDatabase(backend);
  let sandbox: TSandbox;

  beforeAll(async () => {
    // Rows earlier files of this worker left were issued by other sandboxes: reconciliation would hold them.
    await truncateAllTables(db);
    sandbox = await startGatewaySandbox();
  });
  afterAll(async () => {
    await sandbox?.stop();
  });
  beforeEach(async () => {
    await db.mirrorDrift.deleteMany();
  });

  const tamper = (txid: string, change: { amountCents?: number; status?: string }) =>
    sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/tamper`, change);

  async function mirroredCharge(isPaid: boolean): Promise<string> {
    const charge = await createPixCharge({ amount: 25.9, expiration: 600 });
    await upsertPixChargeFromGateway(charge);
    if (isPaid) {
      await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
      await syncPixChargeFromGateway(charge.txid, "refresh");
    }
    return charge.txid;
  }

  const mirrored = (txid: string) => db.pixCharge.findUniqueOrThrow({ where: { txid } });

  it("holds an amount change on a paid charge open, once, until a person heals it from the gateway's copy", async () => {
    const txid = await mirroredCharge(true);
    expect((await tamper(txid, { amountCents: 9990 })).status).toBe(200);

    await runReconciliation({ trigger: "schedule" });
    const [held] = await listMirrorDrift({ resourceId: txid });
    expect(held).toMatchObject({
      resourceKind: "pix_charge",
      source: "reconcile",
      fields: ["amountCents"],
      mirrorValue: { amountCents: 2590 },
      gatewayValue: { amountCents: 9990 },
      healedAt: null,
    });
    expect(await mirrored(txid)).toMatchObject({ amountCents: 2590, status: "PAID" });
    // A second run reads the same difference: still one open item.
    await runReconciliation({ trigger: "schedule" });
    expect(await listMirrorDrift({ resourceId: txid })).toHaveLength(1);
    expect((await listDriftPage({ state: "open", kind: "pix_charge" })).rows.map((row) => row.id)).toEqual([held!.id]);

    expect(await healMirrorDrift(held!.id, operator)).toBe(1);
    expect(await mirrored(txid)).toMatchObject({ amountCents: 9990, status: "PAID" });
    const [healed] = await listMirrorDrift({ resourceId: txid });
    expect(healed).toMatchObject({ id: held!.id, healedAt: expect.any(Date), healedByEmail: "ops@example.com" });
    expect(await db.auditLog.count({ where: { action: "mirror.drift_held", resourceId: txid } })).toBe(1);
    expect(await db.auditLog.count({ where: { action: "mirror.drift_healed", resourceId: txid } })).toBe(1);
    await expect(healMirrorDrift(held!.id, operator)).rejects.toBeInstanceOf(AppError);
    // Healed: nothing left to find.
    await runReconciliation({ trigger: "schedule" });
    expect(await listMirrorDrift({ resourceId: txid })).toHaveLength(1);
  });

  it("heals an unpaid charge's amount change and a status moved back at once, recording both", async () => {
    const unpaid = await mirroredCharge(false);
    const paid = await mirroredCharge(true);
    await tamper(unpaid, { amountCents: 3000 });
    await tamper(paid, { status: "ACTIVE" });

    await runReconciliation({ trigger: "schedule" });
    expect(await mirrored(unpaid)).toMatchObject({ amountCents: 3000, status: "ACTIVE" });
    expect(await mirrored(paid)).toMatchObject({ status: "ACTIVE" });
    expect(await listMirrorDrift({ resourceId: unpaid })).toEqual([
      expect.objectContaining({ gatewayValue: { amountCents: 3000 }, healedAt: expect.any(Date), healedByEmail: null }),
    ]);
    expect(await listMirrorDrift({ resourceId: paid })).toEqual([
      expect.objectContaining({
        mirrorValue: expect.objectContaining({ status: "PAID" }),
        gatewayValue: expect.objectContaining({ status: "ACTIVE" }),
        healedAt: expect.any(Date),
      }),
    ]);
  });

  it("reconciles payment links, and a link paid by Pix (CREATED at the gateway by design) is no drift", async () => {
    const link = await createPaymentLink({ nomePagador: "Fulano de Tal", numeroInscricao: "52998224725", valor: 40 });
    await upsertPaymentLinkFromGateway(link);
    const charge = await createPixCharge({
      amount: 40,
      expiration: 600,
      userReference: `payment-link:${link.linkPaymentUuid}`,
    });
    await db.paymentLink.update({
      where: { linkPaymentUuid: link.linkPaymentUuid },
      data: { pixChargeTxid: charge.txid },
    });
    await upsertPixChargeFromGateway(charge);
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);

    const result = await runReconciliation({ trigger: "schedule" });
    if (result.status !== "finished") throw new Error("reconciliation skipped");
    expect((result.run.scanned as Record<string, number>).payment_link).toBeGreaterThanOrEqual(1);
    expect(await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid: link.linkPaymentUuid } })).toMatchObject({
      statusCode: 3,
      pixPaidTxid: charge.txid,
    });
    await runReconciliation({ trigger: "schedule" });
    expect(await listMirrorDrift({ resourceId: link.linkPaymentUuid })).toEqual([]);
  });
});
