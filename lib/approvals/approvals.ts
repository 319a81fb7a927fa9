import "server-only";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { assertIndependentApprover } from "@/lib/auth/independent-approver";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { approveRefund, rejectRefund } from "@/lib/pix/refund-approvals";
import { approveCardCancel, rejectCardCancel } from "./card-cancel-approvals";
import { loadApprovalForDecision, type TApprover } from "./decision";

// Approving releases money: the approver must be an independent admin with a fresh authenticator `code`
// (lib/auth/independent-approver.ts). An unsure refund may be settled by its requester too, with the same code.
export async function approveMoneyApproval(
  approvalId: string,
  approver: TApprover,
  context: TChangeContext,
  code: string | undefined,
): Promise<{ pixRefundId?: string; paymentId?: string }> {
  const approval = await findKind(approvalId);
  const requesterId = approval.kind === "PIX_REFUND_RECOVERY" ? null : approval.requestedById;
  await assertIndependentApprover(
    { approverId: approver.id, requesterId, code, permission: "refunds.approve" },
    context,
  );
  if (approval.kind !== "CARD_CANCEL") return approveRefund(approvalId, approver, context);
  return approveCardCancel(await loadApprovalForDecision(approvalId, approver), approver, context);
}

export async function rejectMoneyApproval(approvalId: string, approver: TApprover, context: TChangeContext) {
  const approval = await findKind(approvalId);
  if (approval.kind !== "CARD_CANCEL") return rejectRefund(approvalId, approver, context);
  return rejectCardCancel(await loadApprovalForDecision(approvalId, approver), approver, context);
}

async function findKind(approvalId: string) {
  const approval = await db.refundApproval.findUnique({
    where: { id: approvalId },
    select: { kind: true, requestedById: true },
  });
  if (!approval) throw new AppError("NOT_FOUND", "approvals.errors.notFound");
  return approval;
}
