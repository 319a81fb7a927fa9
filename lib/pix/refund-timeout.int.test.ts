import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { GatewayTimeoutError } from "@/lib/gateway/errors";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { createPixCharge, getPixChargeView } from "./charges";
import { requestPixRefund } from "./refunds";
import { ZCreatePixChargeInput } from "./schemas";

// The sandbox makes the refund, then the answer is lost as if the response timeout had fired first.
const gatewayAnswer = vi.hoisted(() => ({ isLost: false }));
vi.mock("@/lib/gateway/pix-refunds", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/gateway/pix-refunds")>();
  return {
    ...actual,
    requestPixRefund: async (body: Parameters<typeof actual.requestPixRefund>[0]) => {
      const refund = await actual.requestPixRefund(body);
      if (!gatewayAnswer.isLost) return refund;
      throw new GatewayTimeoutError("response", 300, { operation: "pix-refunds.request", transactionId: "test" });
    },
  };
});

describe("a Pix refund whose answer timed out", () => {
  let sandbox: TSandbox;
  let context: { actor: { id: string; email: string }; ip: string; userAgent: string };

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    gatewayAnswer.isLost = false;
    await db.idempotencyKey.deleteMany();
    await db.pixCharge.deleteMany();
    await db.auditLog.deleteMany();
    await db.user.deleteMany();
    const user = await db.user.create({ data: { email: "staff@example.com", name: "Staff", passwordHash: "x" } });
    context = { actor: { id: user.id, email: user.email }, ip: "203.0.113.9", userAgent: "vitest" };
  });

  it("is found by the charge page's upstream read, which shows what is really left", async () => {
    const input = ZCreatePixChargeInput.parse({
      idempotencyKey: randomUUID(),
      amountCents: 5000,
      expirationSeconds: 600,
    });
    const { txid } = await createPixCharge(input, context);
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
    await getPixChargeView(txid, { refresh: true });

    gatewayAnswer.isLost = true;
    await expect(
      requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 2000, description: "Sem resposta" }, context),
    ).rejects.toMatchObject({ code: "UPSTREAM_TIMEOUT" });
    const upstream = await sandbox.request("merchant", "GET", `/api/v1/pix-refunds?pixChargeTxid=${txid}&size=100`);
    expect(upstream.body.content).toHaveLength(1);

    // The mirror never heard of it: shown from there alone, the page would offer the whole amount again.
    expect(await getPixChargeView(txid)).toMatchObject({ remainingRefundableCents: 5000, refunds: [] });
    expect(await db.auditLog.count({ where: { action: "pix_refund.failed", resourceId: txid } })).toBe(1);

    // What the panel asks for after UPSTREAM_TIMEOUT (`GET /api/pix/charges/[txid]?refresh=1`).
    const fresh = await getPixChargeView(txid, { refresh: true });
    expect(fresh).toMatchObject({
      status: "PARTIALLY REFUNDED",
      refundedCents: 2000,
      remainingRefundableCents: 3000,
      canRefund: true,
    });
    expect(fresh!.refunds).toEqual([expect.objectContaining({ amountCents: 2000, description: "Sem resposta" })]);
    // And the mirror now holds it, so the next refund is checked against R$ 30,00.
    gatewayAnswer.isLost = false;
    await expect(
      requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 3001 }, context),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE" });
  });
});
