import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { type AppError, isAppError } from "@/lib/errors";
import { englishErrorText } from "@/lib/i18n/error-text";
import { startGatewaySandbox, useGateway } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { createPixCharge, getPixChargeView } from "./charges";
import { findPixRefunds, getRefundPanel, requestPixRefund } from "./refunds";
import { ZCreatePixChargeInput, ZPixRefundFilters } from "./schemas";

describe("Pix refunds against the sandbox", () => {
  let sandbox: TSandbox;
  let context: { actor: { id: string; email: string }; ip: string; userAgent: string };

  async function paidCharge(amountCents: number, upstream = sandbox): Promise<string> {
    const input = ZCreatePixChargeInput.parse({ idempotencyKey: randomUUID(), amountCents, expirationSeconds: 600 });
    const { txid } = await createPixCharge(input, context);
    await upstream.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
    await getPixChargeView(txid, { refresh: true });
    return txid;
  }

  const upstreamRefunds = async (txid: string) =>
    (await sandbox.request("merchant", "GET", `/api/v1/pix-refunds?pixChargeTxid=${txid}&size=100`)).body.content as {
      amount: number;
      status: { code: number };
    }[];

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.idempotencyKey.deleteMany();
    await db.pixCharge.deleteMany();
    await db.auditLog.deleteMany();
    await db.user.deleteMany();
    const user = await db.user.create({ data: { email: "staff@example.com", name: "Staff", passwordHash: "x" } });
    context = { actor: { id: user.id, email: user.email }, ip: "203.0.113.9", userAgent: "vitest" };
  });

  it("refunds half, then the rest, and then refuses a third with a clear message", async () => {
    const txid = await paidCharge(5000);
    await requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 2500, description: "Metade" }, context);
    expect(await getRefundPanel(txid)).toMatchObject({
      status: "PARTIALLY REFUNDED",
      refundedCents: 2500,
      remainingRefundableCents: 2500,
      canRefund: true,
    });
    const { pixRefundId } = await requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 2500 }, context);
    const panel = await getRefundPanel(txid);
    expect(panel).toMatchObject({
      status: "REFUNDED",
      refundedCents: 5000,
      remainingRefundableCents: 0,
      canRefund: false,
      refundWindowDaysLeft: 90,
    });
    expect(panel!.refunds).toHaveLength(2);
    expect(panel!.refunds[0]).toMatchObject({ amountCents: 2500, statusCode: 3, description: "Metade" });
    expect(await db.pixRefund.findUniqueOrThrow({ where: { pixRefundId } })).toMatchObject({
      requestedById: context.actor.id,
      amountCents: 2500,
    });

    await expect(
      requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 1 }, context),
    ).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      messageKey: "pix.refunds.errors.exceedsRemainingFullyRefunded",
      params: { remaining: 0 },
      fieldErrors: { amountCents: "exceedsRemaining" },
    });
    const entries = await db.auditLog.findMany({ where: { action: "pix_refund.requested", resourceId: txid } });
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ actorId: context.actor.id, resourceType: "pix_charge", ip: "203.0.113.9" });
  });

  it("lets exactly 10 of 20 parallel refunds of 10% through, and upstream and mirror agree", async () => {
    const txid = await paidCharge(10_000);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 1000 }, context),
      ),
    );

    const succeeded = results.filter((result) => result.status === "fulfilled");
    const refused = results.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []));
    expect(succeeded).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const error of refused) {
      expect(isAppError(error) && error.code).toBe("UNPROCESSABLE");
      expect(englishErrorText(error as AppError)).toMatch(/^The amount exceeds the remaining refundable/);
    }

    const upstream = await upstreamRefunds(txid);
    expect(upstream).toHaveLength(10);
    expect(upstream.reduce((sum, refund) => sum + Math.round(refund.amount * 100), 0)).toBe(10_000);
    const upstreamCharge = (await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${txid}`)).body;
    const mirrored = await db.pixCharge.findUniqueOrThrow({ where: { txid }, include: { refunds: true } });
    expect(mirrored).toMatchObject({ status: upstreamCharge.status, refundedCents: 10_000 });
    expect(upstreamCharge.status).toBe("REFUNDED");
    expect(mirrored.refunds.map((refund) => refund.pixRefundId).sort()).toEqual(
      (upstreamCharge.devolutions as { pixRefundId: string }[]).map((refund) => refund.pixRefundId).sort(),
    );
    expect(await db.auditLog.count({ where: { action: "pix_refund.requested", resourceId: txid } })).toBe(10);
  });

  it("refunds once when the same form is submitted twice, at once and again later", async () => {
    const txid = await paidCharge(5000);
    const input = { idempotencyKey: randomUUID(), txid, amountCents: 1000 };
    const [first, second] = await Promise.all([requestPixRefund(input, context), requestPixRefund(input, context)]);
    expect(second).toEqual(first);
    expect(await requestPixRefund(input, context)).toEqual(first);
    expect(await upstreamRefunds(txid)).toHaveLength(1);
    expect(await db.pixRefund.count({ where: { txid } })).toBe(1);
    await expect(requestPixRefund({ ...input, amountCents: 2000 }, context)).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });

  it("recovers a refund whose process died after asking upstream, without refunding again", async () => {
    const txid = await paidCharge(5000);
    const input = { idempotencyKey: randomUUID(), txid, amountCents: 1500 };
    const { pixRefundId } = await requestPixRefund(input, context);
    // As if the process had died after the upstream call: the key is left PENDING past its lease.
    await db.pixRefund.deleteMany({ where: { txid } });
    await db.idempotencyKey.update({
      where: { scope_key: { scope: "pix_refund", key: input.idempotencyKey } },
      data: { status: "PENDING", resultId: null, lockedUntil: new Date(Date.now() - 1000) },
    });
    expect(await requestPixRefund(input, context)).toEqual({ pixRefundId });
    expect(await upstreamRefunds(txid)).toHaveLength(1);
    expect(await db.pixRefund.findUniqueOrThrow({ where: { pixRefundId } })).toMatchObject({ amountCents: 1500 });
  });

  it("refuses a refund of an unpaid charge before asking upstream", async () => {
    const input = ZCreatePixChargeInput.parse({
      idempotencyKey: randomUUID(),
      amountCents: 1000,
      expirationSeconds: 600,
    });
    const { txid } = await createPixCharge(input, context);
    await expect(
      requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 100 }, context),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      messageKey: "pix.refunds.errors.notPaid",
      params: { status: "ACTIVE" },
    });
    expect(await upstreamRefunds(txid)).toHaveLength(0);
  });

  it("shows an upstream 422 plainly and changes nothing locally", async () => {
    const txid = await paidCharge(1000);
    // Refunded outside the app: the mirror still believes R$ 10,00 is left.
    await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid, amount: 6 });

    const error = await requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 800 }, context).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: "UNPROCESSABLE" });
    expect(await db.pixRefund.count({ where: { txid } })).toBe(0);
    expect(await db.auditLog.count({ where: { action: "pix_refund.requested" } })).toBe(0);
    expect(await db.auditLog.findFirstOrThrow({ where: { action: "pix_refund.failed" } })).toMatchObject({
      resourceId: txid,
      actorId: context.actor.id,
    });
  });

  it("shows an upstream 409 plainly and changes nothing locally", async () => {
    const txid = await paidCharge(1000);
    await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid, amount: 10 });

    const error = await requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 100 }, context).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: "CONFLICT" });
    expect((error as Error).message).not.toBe("");
    expect(await db.pixRefund.count({ where: { txid } })).toBe(0);
    expect((await db.pixCharge.findUniqueOrThrow({ where: { txid } })).status).toBe("PAID");
  });

  it("holds a processing refund's amount and frees it on the first gateway read after the refusal", async () => {
    const manual = await startGatewaySandbox({ env: { SANDBOX_REFUND_SETTLEMENT: "manual" } });
    try {
      const txid = await paidCharge(2000, manual);
      const { pixRefundId } = await requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 800 }, context);
      expect(await getPixChargeView(txid, { refresh: true })).toMatchObject({
        remainingRefundableCents: 1200,
        refunds: [{ pixRefundId, statusCode: 2 }],
      });
      await manual.request("merchant", "POST", `/sandbox/v1/pix-refunds/${pixRefundId}/fail`, {
        statusReason: "conta encerrada",
      });
      // The read the charge page polls with while a refund is unsettled (`?refresh=1`).
      const view = await getPixChargeView(txid, { refresh: true });
      expect(view).toMatchObject({ status: "PAID", remainingRefundableCents: 2000, canRefund: true });
      expect(view!.refunds).toMatchObject([{ pixRefundId, statusCode: 4, statusReason: "conta encerrada" }]);
    } finally {
      await manual.stop();
      await useGateway(sandbox.baseUrl, sandbox.certsDir);
    }
  });

  it("lists refunds from the mirror by period, txid and status code", async () => {
    const manual = await startGatewaySandbox({ env: { SANDBOX_REFUND_SETTLEMENT: "manual" } });
    try {
      const first = await paidCharge(2000, manual);
      const second = await paidCharge(3000, manual);
      const a = await requestPixRefund({ idempotencyKey: randomUUID(), txid: first, amountCents: 500 }, context);
      const b = await requestPixRefund({ idempotencyKey: randomUUID(), txid: second, amountCents: 700 }, context);
      await manual.request("merchant", "POST", `/sandbox/v1/pix-refunds/${a.pixRefundId}/settle`);
      await getPixChargeView(first, { refresh: true });

      const find = (params: Record<string, string>) => findPixRefunds(ZPixRefundFilters.parse(params));
      expect((await find({})).rows.map((row) => row.pixRefundId)).toEqual([b.pixRefundId, a.pixRefundId]);
      expect((await find({ txid: second })).rows).toMatchObject([
        { pixRefundId: b.pixRefundId, txid: second, amountCents: 700, statusCode: 2 },
      ]);
      expect((await find({ statusCode: "3" })).rows).toMatchObject([{ pixRefundId: a.pixRefundId, statusCode: 3 }]);
      expect((await find({ statusCode: "3" })).rows[0]!.settledAt).toBeTruthy();
      expect((await find({ from: "2000-01-01", to: "2000-12-31" })).total).toBe(0);
      expect((await find({ sort: "amount", order: "asc" })).rows.map((row) => row.amountCents)).toEqual([500, 700]);
      expect(ZPixRefundFilters.parse({ statusCode: "7" }).statusCode).toBeUndefined();
    } finally {
      await manual.stop();
      await useGateway(sandbox.baseUrl, sandbox.certsDir);
    }
  });
});
