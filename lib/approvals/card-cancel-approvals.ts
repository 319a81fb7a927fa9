import "server-only";
import { recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { cancelCardPayment, type TCancelCardPayment } from "@/lib/card-payments/cancel";
import type { TCardPaymentView } from "@/lib/card-payments/views";
import { inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { RefundApproval } from "@/lib/generated/prisma/client";
import { approvalAuditFields, assertStillPending, expireApproval, type TApprover } from "./decision";
import { isMoneyApprovalRequired, type TMoneyHoldReason } from "./money-policy";
import { mailApprovalWaiting } from "./recipients";

const cardCancelApprovalTtlMs = 24 * 60 * 60 * 1000;

export async function submitCardPaymentCancel(
  input: TCancelCardPayment,
  context: TChangeContext,
): Promise<TCardPaymentView> {
  try {
    return await cancelCardPayment(input, context);
  } catch (error) {
    if (!isMoneyApprovalRequired(error)) throw error;
    const requesterId = context.actor?.id;
    if (!requesterId) throw new AppError("FORBIDDEN", "approvals.errors.cancelRequesterRequired");
    await holdCardCancelForApproval(input, requesterId, error.reason, context);
    throw new AppError("CONFLICT", "cardPayments.errors.cancelHeldForApproval");
  }
}

// One waiting request per payment: a cancel is always whole, so a second dialog adds nothing to decide.
async function holdCardCancelForApproval(
  input: TCancelCardPayment,
  requesterId: string,
  reason: TMoneyHoldReason,
  context: TChangeContext,
): Promise<void> {
  const { paymentId, idempotencyKey } = input;
  const held = await inTransaction(async (tx) => {
    const payment = await tx.cardPayment.findUnique({ where: { id: paymentId }, select: { amountCents: true } });
    if (!payment) throw new AppError("NOT_FOUND", "cardPayments.errors.notFound");
    const waiting = await tx.refundApproval.findFirst({
      where: { kind: "CARD_CANCEL", paymentId, status: "PENDING", expiresAt: { gt: new Date() } },
    });
    if (waiting) return null;
    const approval = await tx.refundApproval.create({
      data: {
        kind: "CARD_CANCEL",
        reason,
        paymentId,
        amountCents: payment.amountCents,
        idempotencyKey,
        requestedById: requesterId,
        expiresAt: new Date(Date.now() + cardCancelApprovalTtlMs),
      },
    });
    await recordAudit(
      {
        ...approvalAuditFields(context, approval),
        action: "refund_approval.requested",
        metadata: { approvalId: approval.id, amountCents: payment.amountCents, reason },
      },
      tx,
    );
    return { amountCents: payment.amountCents };
  });
  if (held) await mailApprovalWaiting({ kind: "CARD_CANCEL", amountCents: held.amountCents, requesterId });
}

// The decision is taken first (PENDING → APPROVED), then the cancel runs with the request's own key: approving again
// after a failed or unclear cancel runs it again, idempotently, and a rejection can no longer overtake it.
export async function approveCardCancel(
  approval: RefundApproval,
  approver: TApprover,
  context: TChangeContext,
): Promise<{ paymentId: string }> {
  const { id: approvalId, paymentId, idempotencyKey } = approval;
  if (!paymentId) throw new AppError("CONFLICT", "approvals.errors.notCardCancel");
  if (approval.status !== "APPROVED") {
    assertStillPending(approval);
    if (approval.expiresAt <= new Date()) await expireApproval(approval, context);
    await inTransaction(async (tx) => {
      const { count } = await tx.refundApproval.updateMany({
        where: { id: approvalId, status: "PENDING" },
        data: { status: "APPROVED", decidedById: approver.id, decidedAt: new Date() },
      });
      if (count === 0) throw new AppError("CONFLICT", "approvals.errors.noLongerPending");
      await recordAudit(
        {
          ...approvalAuditFields(context, approval),
          action: "refund_approval.approved",
          metadata: { approvalId, amountCents: approval.amountCents, requestedById: approval.requestedById },
        },
        tx,
      );
    });
  }
  await cancelCardPayment({ paymentId, idempotencyKey }, context, { approvedRequestOf: approval.requestedById });
  return { paymentId };
}

export async function rejectCardCancel(approval: RefundApproval, approver: TApprover, context: TChangeContext) {
  await inTransaction(async (tx) => {
    const { count } = await tx.refundApproval.updateMany({
      where: { id: approval.id, status: "PENDING" },
      data: { status: "REJECTED", decidedById: approver.id, decidedAt: new Date() },
    });
    if (count === 0) throw new AppError("CONFLICT", "approvals.errors.noLongerPending");
    await recordAudit(
      {
        ...approvalAuditFields(context, approval),
        action: "refund_approval.rejected",
        metadata: { approvalId: approval.id, amountCents: approval.amountCents, requestedById: approval.requestedById },
      },
      tx,
    );
  });
}
