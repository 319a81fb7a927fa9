import "server-only";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { can } from "@/lib/auth/permissions";
import type { TCurrentUser } from "@/lib/auth/session";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { RefundApproval } from "@/lib/generated/prisma/client";

export type TApprover = Pick<TCurrentUser, "id" | "permissions">;

export function approvalAuditFields(
  context: TChangeContext,
  approval: Pick<RefundApproval, "kind" | "txid" | "paymentId">,
) {
  return approval.kind === "CARD_CANCEL"
    ? auditFieldsOf(context, "card_payment", approval.paymentId ?? "")
    : auditFieldsOf(context, "pix_charge", approval.txid ?? "");
}

// Releasing held money needs a second person; an unsure refund is a question of fact any approver may settle.
export async function loadApprovalForDecision(approvalId: string, approver: TApprover): Promise<RefundApproval> {
  if (!can(approver, "refunds.approve")) throw new AppError("FORBIDDEN", "approvals.errors.adminOnly");
  const approval = await db.refundApproval.findUnique({ where: { id: approvalId } });
  if (!approval) throw new AppError("NOT_FOUND", "approvals.errors.notFound");
  if (approval.kind !== "PIX_REFUND_RECOVERY" && approval.requestedById === approver.id) {
    throw new AppError("FORBIDDEN", "approvals.errors.ownRequest");
  }
  return approval;
}

export function assertStillPending(approval: RefundApproval): void {
  if (approval.status !== "PENDING")
    throw new AppError("CONFLICT", "approvals.errors.notPending", {
      params: { status: approval.status },
    });
}

export async function expireApproval(approval: RefundApproval, context: TChangeContext): Promise<never> {
  await inTransaction(async (tx) => {
    const { count } = await tx.refundApproval.updateMany({
      where: { id: approval.id, status: "PENDING" },
      data: { status: "EXPIRED" },
    });
    if (count === 1) {
      await recordAudit(
        {
          ...approvalAuditFields(context, approval),
          action: "refund_approval.expired",
          metadata: { approvalId: approval.id },
        },
        tx,
      );
    }
  });
  throw new AppError("CONFLICT", "approvals.errors.expired");
}
