import { randomUUID } from "node:crypto";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TPermission } from "@/lib/auth/permissions";
import { permissionsOfRole } from "@/lib/auth/roles";
import { confirmTwoFactorEnrolment, startTwoFactorEnrolment } from "@/lib/auth/two-factor";
import { db } from "@/lib/db/client";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { createPixCharge, getPixChargeView } from "./charges";
import { approveRefund, findPendingRefundApprovals, rejectRefund, submitPixRefund } from "./refund-approvals";
import { getRefundPanel, requestPixRefund } from "./refunds";
import { ZCreatePixChargeInput, ZSubmitPixRefundInput } from "./schemas";

type TActor = { id: string; email: string; roleId: "administrator" | "operations"; permissions: TPermission[] };

describe("step-up approval for large refunds", () => {
  let sandbox: TSandbox;
  let requester: TActor;
  let approver: TActor;
  const contextOf = (actor: TActor) => ({ actor: { id: actor.id, email: actor.email }, ip: "203.0.113.9" });

  async function paidCharge(amountCents: number): Promise<string> {
    const input = ZCreatePixChargeInput.parse({ idempotencyKey: randomUUID(), amountCents, expirationSeconds: 600 });
    const { txid } = await createPixCharge(input, contextOf(requester));
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
    await getPixChargeView(txid, { refresh: true });
    return txid;
  }

  const upstreamRefunds = async (txid: string) =>
    (await sandbox.request("merchant", "GET", `/api/v1/pix-refunds?pixChargeTxid=${txid}&size=100`)).body.content as {
      amount: number;
    }[];

  const submit = (txid: string, amountCents: number, code?: string) =>
    submitPixRefund(
      ZSubmitPixRefundInput.parse({ idempotencyKey: randomUUID(), txid, amountCents, code }),
      contextOf(requester),
    );

  async function createActor(email: string, roleId: TActor["roleId"]): Promise<TActor> {
    const user = await db.user.create({ data: { email, name: email.split("@")[0]!, passwordHash: "x", roleId } });
    return { id: user.id, email, roleId, permissions: permissionsOfRole(roleId, null) };
  }

  const auditActions = async () =>
    (
      await db.auditLog.findMany({
        where: { action: { startsWith: "refund_approval." } },
        orderBy: { occurredAt: "asc" },
      })
    ).map((entry) => entry.action);

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    // Approvals keep their requester: leave none behind for suites that delete users first.
    await db.refundApproval.deleteMany();
    await db.role.updateMany({ data: { refundLimitCents: 100_000 } });
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.idempotencyKey.deleteMany();
    await db.pixCharge.deleteMany();
    await db.auditLog.deleteMany();
    await db.rateLimitBucket.deleteMany();
    await db.appSetting.deleteMany();
    await db.refundApproval.deleteMany();
    await db.user.deleteMany();
    await db.role.updateMany({ data: { refundLimitCents: 100_000 } });
    requester = await createActor("ana@example.com", "administrator");
    approver = await createActor("bia@example.com", "administrator");
  });

  it("refunds at once at or below the role limit (default R$ 1.000,00)", async () => {
    const txid = await paidCharge(200_000);
    expect(await submit(txid, 100_000)).toMatchObject({ status: "refunded" });
    expect(await upstreamRefunds(txid)).toHaveLength(1);
    expect(await db.refundApproval.count()).toBe(0);
  });

  it("holds a larger refund for a second admin, who sends it upstream once even when approving twice", async () => {
    const txid = await paidCharge(300_000);
    const result = await submit(txid, 150_000);
    expect(result).toMatchObject({ status: "pending" });
    expect(await upstreamRefunds(txid)).toHaveLength(0);
    const approvalId = (result as { approvalId: string }).approvalId;
    expect(await findPendingRefundApprovals({ txid })).toMatchObject([
      { id: approvalId, amountCents: 150_000, isExpired: false, requestedBy: { email: "ana@example.com" } },
    ]);

    // The held amount counts: a second large request cannot take more than what is left.
    await expect(submit(txid, 150_001)).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(
      requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 150_001 }, contextOf(requester)),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE" });

    await expect(approveRefund(approvalId, requester, contextOf(requester))).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const staff = await createActor("caio@example.com", "operations");
    await expect(approveRefund(approvalId, staff, contextOf(staff))).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await upstreamRefunds(txid)).toHaveLength(0);

    const [first, second] = await Promise.all([
      approveRefund(approvalId, approver, contextOf(approver)),
      approveRefund(approvalId, approver, contextOf(approver)),
    ]);
    expect(second).toEqual(first);
    expect(await approveRefund(approvalId, approver, contextOf(approver))).toEqual(first);
    expect(await upstreamRefunds(txid)).toHaveLength(1);
    expect(await db.refundApproval.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({
      status: "APPROVED",
      decidedById: approver.id,
      pixRefundId: first.pixRefundId,
    });
    expect(await db.pixRefund.findUniqueOrThrow({ where: { pixRefundId: first.pixRefundId } })).toMatchObject({
      requestedById: requester.id,
      amountCents: 150_000,
    });
    expect(await getRefundPanel(txid)).toMatchObject({ refundedCents: 150_000, remainingRefundableCents: 150_000 });
    expect(await auditActions()).toEqual(["refund_approval.requested", "refund_approval.approved"]);
  });

  it("releases the held amount on rejection, with nothing sent upstream", async () => {
    const txid = await paidCharge(200_000);
    const { approvalId } = (await submit(txid, 200_000)) as { approvalId: string };
    await expect(
      requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 100 }, contextOf(requester)),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(rejectRefund(approvalId, requester, contextOf(requester))).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await rejectRefund(approvalId, approver, contextOf(approver));
    await expect(approveRefund(approvalId, approver, contextOf(approver))).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect(await upstreamRefunds(txid)).toHaveLength(0);
    expect(await findPendingRefundApprovals({ txid })).toEqual([]);
    await requestPixRefund({ idempotencyKey: randomUUID(), txid, amountCents: 100 }, contextOf(requester));
    expect(await upstreamRefunds(txid)).toHaveLength(1);
    expect(await auditActions()).toEqual(["refund_approval.requested", "refund_approval.rejected"]);
  });

  it("refuses to approve a request older than 24 h and releases its hold", async () => {
    const txid = await paidCharge(200_000);
    const { approvalId } = (await submit(txid, 200_000)) as { approvalId: string };
    await db.refundApproval.update({ where: { id: approvalId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await findPendingRefundApprovals({ txid })).toMatchObject([{ isExpired: true }]);
    await expect(approveRefund(approvalId, approver, contextOf(approver))).rejects.toMatchObject({
      code: "CONFLICT",
      messageKey: "approvals.errors.expired",
    });
    expect(await upstreamRefunds(txid)).toHaveLength(0);
    expect((await db.refundApproval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe("EXPIRED");
    expect(await auditActions()).toEqual(["refund_approval.requested", "refund_approval.expired"]);
  });

  it("refunds at once with the requester's current authenticator code, and not with a wrong one", async () => {
    const enrolment = await startTwoFactorEnrolment(requester);
    const codeAt = (at: number) =>
      new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolment.secret) }).generate({ timestamp: at });
    const enrolledAt = new Date(Date.now() - 30_000);
    await confirmTwoFactorEnrolment(
      requester.id,
      { enrolmentToken: enrolment.enrolmentToken, code: codeAt(enrolledAt.getTime()) },
      contextOf(requester),
      enrolledAt,
    );
    const txid = await paidCharge(300_000);
    const current = codeAt(Date.now());
    const wrong = String((Number(current) + 1) % 1_000_000).padStart(6, "0");
    await expect(submit(txid, 150_000, wrong)).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    expect(await upstreamRefunds(txid)).toHaveLength(0);

    expect(await submit(txid, 150_000, current)).toMatchObject({ status: "refunded" });
    expect(await upstreamRefunds(txid)).toHaveLength(1);
    // A code is used up: replaying it does not refund again.
    await expect(submit(txid, 150_000, current)).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    expect(await upstreamRefunds(txid)).toHaveLength(1);
    expect(await db.refundApproval.count()).toBe(0);
  });

  it("holds nothing back when the requester's role limit is 0 (off)", async () => {
    await db.role.update({ where: { id: requester.roleId }, data: { refundLimitCents: 0 } });
    const txid = await paidCharge(500_000);
    expect(await submit(txid, 500_000)).toMatchObject({ status: "refunded" });
    expect(await upstreamRefunds(txid)).toHaveLength(1);
  });
});
