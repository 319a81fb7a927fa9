import "server-only";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { verifyStepUpCode } from "@/lib/auth/two-factor";
import { db, inTransaction } from "@/lib/db/client";
import type { TMirrorClient } from "@/lib/db/mirror-write";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { getAppSetting } from "@/lib/settings/app-settings";
import { lockPixCharge } from "./mirror";
import { assertPixRefundable, requestPixRefund } from "./refunds";
import type { TRequestPixRefund, TSubmitPixRefund } from "./schemas";
import type { TRefundApprovalView } from "./types";

// Step-up for large refunds (docs/pix.md): above the threshold a refund needs the requester's fresh
// authenticator code, or a second admin's approval within this long.
export const refundApprovalTtlMs = 24 * 60 * 60 * 1000;

export type TSubmitPixRefundResult =
  | { status: "refunded"; pixRefundId: string }
  | { status: "pending"; approvalId: string };

export type TRefundApprover = { id: string; role: "ADMIN" | "STAFF" };

const auditFields = (context: TChangeContext, txid: string) => auditFieldsOf(context, "pix_charge", txid);

export async function isStepUpRequired(amountCents: number): Promise<boolean> {
  const thresholdCents = await getAppSetting("refundApprovalThresholdCents");
  return thresholdCents > 0 && amountCents > thresholdCents;
}

// The refund form's one entry: at once below the threshold or with a valid code, else held for a second admin.
export async function submitPixRefund(
  input: TSubmitPixRefund,
  context: TChangeContext,
): Promise<TSubmitPixRefundResult> {
  const { code, ...refund } = input;
  if (!(await isStepUpRequired(refund.amountCents))) {
    return { status: "refunded", ...(await requestPixRefund(refund, context)) };
  }
  const requesterId = context.actor?.id;
  if (!requesterId) throw new AppError("FORBIDDEN", "A large refund needs a signed-in requester.");
  if (code) {
    await verifyStepUpCode(requesterId, code, context);
    return { status: "refunded", ...(await requestPixRefund(refund, context)) };
  }
  return { status: "pending", approvalId: await holdRefundForApproval(refund, requesterId, context) };
}

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

// Nothing goes upstream: the amount is checked and held under the charge's lock, like a refund.
async function holdRefundForApproval(refund: TRequestPixRefund, requesterId: string, context: TChangeContext) {
  const { idempotencyKey, txid, amountCents, description } = refund;
  try {
    return await inTransaction(async (tx) => {
      await lockPixCharge(tx, txid);
      await assertPixRefundable(tx, txid, amountCents);
      const approval = await tx.refundApproval.create({
        data: {
          txid,
          amountCents,
          description: description ?? null,
          idempotencyKey,
          requestedById: requesterId,
          expiresAt: new Date(Date.now() + refundApprovalTtlMs),
        },
      });
      await recordAudit(
        {
          ...auditFields(context, txid),
          action: "refund_approval.requested",
          metadata: { approvalId: approval.id, amountCents },
        },
        tx,
      );
      return approval.id;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The same form sent twice: one request.
    const existing = await db.refundApproval.findUniqueOrThrow({ where: { idempotencyKey } });
    if (existing.txid !== txid || existing.amountCents !== amountCents) {
      throw new AppError("CONFLICT", "This request was already sent with other data: start a new one.");
    }
    return existing.id;
  }
}

async function loadForDecision(approvalId: string, approver: TRefundApprover) {
  if (approver.role !== "ADMIN") throw new AppError("FORBIDDEN", "Only admins can decide on a refund.");
  const approval = await db.refundApproval.findUnique({ where: { id: approvalId } });
  if (!approval) throw new AppError("NOT_FOUND", "Refund approval not found.");
  if (approval.requestedById === approver.id) {
    throw new AppError("FORBIDDEN", "A second admin must decide on a refund you requested.");
  }
  return approval;
}

async function expireApproval(approvalId: string, txid: string, context: TChangeContext): Promise<never> {
  await inTransaction(async (tx) => {
    const { count } = await tx.refundApproval.updateMany({
      where: { id: approvalId, status: "PENDING" },
      data: { status: "EXPIRED" },
    });
    if (count === 1) {
      await recordAudit(
        { ...auditFields(context, txid), action: "refund_approval.expired", metadata: { approvalId } },
        tx,
      );
    }
  });
  throw new AppError("CONFLICT", "This refund request expired: ask for a new one.");
}

// Sent through the one refund path with the request's own key, so approving twice refunds once.
export async function approveRefund(
  approvalId: string,
  approver: TRefundApprover,
  context: TChangeContext,
): Promise<{ pixRefundId: string }> {
  const approval = await loadForDecision(approvalId, approver);
  if (approval.status === "APPROVED" && approval.pixRefundId) return { pixRefundId: approval.pixRefundId };
  if (approval.status !== "PENDING") throw new AppError("CONFLICT", `This refund request is ${approval.status}.`);
  if (approval.expiresAt <= new Date()) await expireApproval(approval.id, approval.txid, context);

  const { txid, amountCents, idempotencyKey } = approval;
  const markApproved = async (client: TMirrorClient, pixRefundId: string) =>
    client.refundApproval.updateMany({
      where: { id: approvalId, status: "PENDING" },
      data: { status: "APPROVED", decidedById: approver.id, decidedAt: new Date(), pixRefundId },
    });
  const result = await requestPixRefund(
    { idempotencyKey, txid, amountCents, description: approval.description ?? undefined },
    context,
    {
      approvalId,
      requestedById: approval.requestedById,
      // Read again under the charge's lock: a rejection or the clock may have got there first.
      check: async (tx) => {
        const current = await tx.refundApproval.findUniqueOrThrow({ where: { id: approvalId } });
        if (current.status !== "PENDING" || current.expiresAt <= new Date()) {
          throw new AppError("CONFLICT", "This refund request is no longer waiting for approval.");
        }
      },
      record: async (tx, pixRefundId) => {
        await markApproved(tx, pixRefundId);
        await recordAudit(
          {
            ...auditFields(context, txid),
            action: "refund_approval.approved",
            metadata: { approvalId, pixRefundId, amountCents, requestedById: approval.requestedById },
          },
          tx,
        );
      },
    },
  );
  // A replayed key (or a refund whose local write failed) skipped `record`.
  await markApproved(db, result.pixRefundId);
  return result;
}

export async function rejectRefund(
  approvalId: string,
  approver: TRefundApprover,
  context: TChangeContext,
): Promise<void> {
  const approval = await loadForDecision(approvalId, approver);
  await inTransaction(async (tx) => {
    // The charge's lock orders this after an approval already on its way upstream.
    await lockPixCharge(tx, approval.txid);
    const { count } = await tx.refundApproval.updateMany({
      where: { id: approvalId, status: "PENDING" },
      data: { status: "REJECTED", decidedById: approver.id, decidedAt: new Date() },
    });
    if (count === 0) throw new AppError("CONFLICT", "This refund request is no longer waiting for approval.");
    await recordAudit(
      {
        ...auditFields(context, approval.txid),
        action: "refund_approval.rejected",
        metadata: { approvalId, amountCents: approval.amountCents, requestedById: approval.requestedById },
      },
      tx,
    );
  });
}

function toRefundApprovalView(
  approval: Prisma.RefundApprovalGetPayload<{ include: { requestedBy: true } }>,
  now: Date,
): TRefundApprovalView {
  const { requestedBy } = approval;
  return {
    id: approval.id,
    txid: approval.txid,
    amountCents: approval.amountCents,
    description: approval.description,
    requestedBy: { id: requestedBy.id, name: requestedBy.name, email: requestedBy.email },
    createdAt: approval.createdAt.toISOString(),
    expiresAt: approval.expiresAt.toISOString(),
    isExpired: approval.expiresAt <= now,
  };
}

// Requests still waiting, oldest first (one past its 24 h shows as expired until the next decision marks it).
export async function findPendingRefundApprovals(filter: { txid?: string } = {}): Promise<TRefundApprovalView[]> {
  const rows = await db.refundApproval.findMany({
    where: { status: "PENDING", txid: filter.txid },
    include: { requestedBy: true },
    orderBy: { createdAt: "asc" },
    take: 200,
  });
  const now = new Date();
  return rows.map((row) => toRefundApprovalView(row, now));
}
