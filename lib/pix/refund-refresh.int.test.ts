import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { createPixCharge, getPixChargeView } from "./charges";
import { findPixRefunds, refreshPixRefundFromGateway, requestPixRefund } from "./refunds";
import { ZCreatePixChargeInput, ZPixRefundFilters } from "./schemas";

// "Refresh from gateway" on one refund: GET /pix-refunds/{id} into the mirror, and the refund's end-to-end id shown.
describe("refreshing one Pix refund from the gateway", () => {
  let sandbox: TSandbox;
  let context: { actor: { id: string; email: string }; ip: string };

  beforeAll(async () => {
    // Refunds stay PROCESSING until the control API settles them, so the mirror falls behind on purpose.
    sandbox = await startGatewaySandbox({ env: { SANDBOX_REFUND_SETTLEMENT: "manual" } });
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.refundApproval.deleteMany();
    await db.idempotencyKey.deleteMany();
    await db.pixCharge.deleteMany();
    await db.user.deleteMany();
    const user = await db.user.create({ data: { email: "caio@example.com", name: "Caio", passwordHash: "x" } });
    context = { actor: { id: user.id, email: user.email }, ip: "203.0.113.9" };
  });

  it("reads the refund by its id, updates the mirror, and the list shows its refundEndToEnd", async () => {
    const input = ZCreatePixChargeInput.parse({
      idempotencyKey: randomUUID(),
      amountCents: 5000,
      expirationSeconds: 600,
    });
    const { txid } = await createPixCharge(input, context);
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
    await getPixChargeView(txid, { refresh: true });
    const { pixRefundId } = await requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 1200 }, context);
    expect(await db.pixRefund.findUniqueOrThrow({ where: { pixRefundId } })).toMatchObject({ statusCode: 2 });

    const settled = await sandbox.request("merchant", "POST", `/sandbox/v1/pix-refunds/${pixRefundId}/settle`);
    const row = await refreshPixRefundFromGateway(pixRefundId);
    expect(row).toMatchObject({ pixRefundId, statusCode: 3, refundEndToEnd: settled.body.refundEndToEnd });
    expect(row.refundEndToEnd).toMatch(/^D/);
    expect(await db.pixRefund.findUniqueOrThrow({ where: { pixRefundId } })).toMatchObject({
      statusCode: 3,
      settlementDate: expect.any(Date),
    });
    const page = await findPixRefunds(ZPixRefundFilters.parse({ txid }));
    expect(page.rows).toEqual([expect.objectContaining({ pixRefundId, refundEndToEnd: settled.body.refundEndToEnd })]);
  });

  it("says not found for a refund the gateway does not know", async () => {
    await expect(refreshPixRefundFromGateway(randomUUID())).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
