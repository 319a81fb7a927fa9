import "server-only";
import {
  approvalAuditFields,
  assertStillPending,
  expireApproval,
  loadApprovalForDecision,
  type TApprover,
} from "@/lib/approvals/decision";
import { isMoneyApprovalRequired, type TMoneyHoldReason } from "@/lib/approvals/money-policy";
import { mailApprovalWaiting } from "@/lib/approvals/recipients";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { verifyStepUpCode } from "@/lib/auth/two-factor";
import { db, inTransaction } from "@/lib/db/client";
import type { TMirrorClient } from "@/lib/db/mirror-write";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { lockPixCharge } from "./mirror";
import { assertPixRefundable, PixRefundHeldError, pixRefundIdempotencyScope, requestPixRefund } from "./refunds";
import type { TRequestPixRefund, TSubmitPixRefund } from "./schemas";
import type { TRefundApprovalView } from "./types";

// Step-up (docs/pix.md): past the per-charge threshold a refund needs a fresh code or a second admin within this long;
// past the daily limit, only a second admin.
const refundApprovalTtlMs = 24 * 60 * 60 * 1000;

export type TSubmitPixRefundResult =
  | { status: "refunded"; pixRefundId: string }
  | { status: "pending"; approvalId: string };

const auditFields = (context: TChangeContext, txid: string) => auditFieldsOf(context, "pix_charge", txid);

// The money policy runs under the charge's lock in the refund path: a held request waits, nothing goes upstream.
export async function submitPixRefund(
  input: TSubmitPixRefund,
  context: TChangeContext,
): Promise<TSubmitPixRefundResult> {
  const { code, ...refund } = input;
  const requesterId = context.actor?.id;
  if (code) {
    if (!requesterId) throw new AppError("FORBIDDEN", "approvals.errors.requesterRequired");
    await verifyStepUpCode(requesterId, code, context);
  }
  try {
    return { status: "refunded", ...(await requestPixRefund(refund, context, { isSteppedUp: Boolean(code) })) };
  } catch (error) {
    if (error instanceof PixRefundHeldError) return { status: "pending", approvalId: error.approvalId };
    if (!isMoneyApprovalRequired(error)) throw error;
    if (!requesterId) throw new AppError("FORBIDDEN", "approvals.errors.requesterRequired");
    return {
      status: "pending",
      approvalId: await holdRefundForApproval(refund, requesterId, error.reason, context),
    };
  }
}

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

// Nothing goes upstream: the amount is checked and held under the charge's lock, like a refund.
async function holdRefundForApproval(
  refund: TRequestPixRefund,
  requesterId: string,
  reason: TMoneyHoldReason,
  context: TChangeContext,
) {
  const { idempotencyKey, txid, amountCents, description } = refund;
  let approvalId: string;
  try {
    approvalId = await inTransaction(async (tx) => {
      await lockPixCharge(tx, txid);
      await assertPixRefundable(tx, txid, amountCents);
      const approval = await tx.refundApproval.create({
        data: {
          kind: "PIX_REFUND",
          reason,
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
          metadata: { approvalId: approval.id, amountCents, reason },
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
      throw new AppError("CONFLICT", "errors.idempotency.reusedKey");
    }
    return existing.id;
  }
  await mailApprovalWaiting({ kind: "PIX_REFUND", amountCents, requesterId });
  return approvalId;
}

const noLongerWaiting = () => new AppError("CONFLICT", "approvals.errors.noLongerPending");

// Through the one refund path with the request's key, so approving twice refunds once. For an unsure hold it is "send
// again": a new refund with the hold's key, which also answers the unsure key (no third send).
export async function approveRefund(
  approvalId: string,
  approver: TApprover,
  context: TChangeContext,
): Promise<{ pixRefundId: string }> {
  const approval = await loadApprovalForDecision(approvalId, approver);
  if (approval.status === "APPROVED" && approval.pixRefundId) return { pixRefundId: approval.pixRefundId };
  assertStillPending(approval);
  if (approval.expiresAt <= new Date()) await expireApproval(approval, context);
  const { txid, amountCents, idempotencyKey, recoveryOfKey } = approval;
  if (!txid) throw new AppError("CONFLICT", "approvals.errors.notPixRefund");

  const markApproved = async (client: TMirrorClient, pixRefundId: string) => {
    await client.refundApproval.updateMany({
      where: { id: approvalId, status: "PENDING" },
      data: { status: "APPROVED", decidedById: approver.id, decidedAt: new Date(), pixRefundId },
    });
    if (recoveryOfKey) {
      await client.idempotencyKey.updateMany({
        where: { scope: pixRefundIdempotencyScope, key: recoveryOfKey, status: { not: "SUCCEEDED" } },
        data: { status: "SUCCEEDED", resultId: pixRefundId, error: null, lockedUntil: new Date() },
      });
    }
  };
  const result = await requestPixRefund(
    { idempotencyKey, txid, amountCents, description: approval.description ?? undefined },
    context,
    {
      approvalId,
      requestedById: approval.requestedById,
      // Read again under the charge's lock: a rejection or the clock may have got there first.
      check: async (tx) => {
        const current = await tx.refundApproval.findUniqueOrThrow({ where: { id: approvalId } });
        if (current.status !== "PENDING" || current.expiresAt <= new Date()) throw noLongerWaiting();
      },
      record: async (tx, pixRefundId) => {
        await markApproved(tx, pixRefundId);
        await recordAudit(
          {
            ...approvalAuditFields(context, approval),
            action: "refund_approval.approved",
            metadata: {
              approvalId,
              pixRefundId,
              amountCents,
              requestedById: approval.requestedById,
              ...(recoveryOfKey ? { decision: "sentAgain", unsureKey: recoveryOfKey } : {}),
            },
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

// Rejecting an unsure hold is "mark as not sent" (an admin found no refund upstream): the key closes as failed.
export async function rejectRefund(approvalId: string, approver: TApprover, context: TChangeContext): Promise<void> {
  const approval = await loadApprovalForDecision(approvalId, approver);
  const { txid, recoveryOfKey } = approval;
  if (!txid) throw new AppError("CONFLICT", "approvals.errors.notPixRefund");
  await inTransaction(async (tx) => {
    // The charge's lock orders this after an approval already on its way upstream.
    await lockPixCharge(tx, txid);
    const { count } = await tx.refundApproval.updateMany({
      where: { id: approvalId, status: "PENDING" },
      data: { status: "REJECTED", decidedById: approver.id, decidedAt: new Date() },
    });
    if (count === 0) throw noLongerWaiting();
    if (recoveryOfKey) {
      await tx.idempotencyKey.updateMany({
        where: { scope: pixRefundIdempotencyScope, key: recoveryOfKey, status: "PENDING" },
        data: { status: "FAILED", error: "marked as not sent by an admin", lockedUntil: new Date() },
      });
    }
    await recordAudit(
      {
        ...approvalAuditFields(context, approval),
        action: "refund_approval.rejected",
        metadata: {
          approvalId,
          amountCents: approval.amountCents,
          requestedById: approval.requestedById,
          ...(recoveryOfKey ? { decision: "markedNotSent", unsureKey: recoveryOfKey } : {}),
        },
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
  const isUnsure = approval.kind === "PIX_REFUND_RECOVERY";
  return {
    id: approval.id,
    kind: approval.kind,
    reason: approval.reason,
    txid: approval.txid,
    paymentId: approval.paymentId,
    amountCents: approval.amountCents,
    description: approval.description,
    requestedBy: { id: requestedBy.id, name: requestedBy.name, email: requestedBy.email },
    createdAt: approval.createdAt.toISOString(),
    // An unsure refund waits for a decision however long it takes.
    expiresAt: isUnsure ? null : approval.expiresAt.toISOString(),
    isExpired: !isUnsure && approval.expiresAt <= now,
  };
}

// Oldest first; one past its 24 h shows as expired until decided.
export async function findPendingRefundApprovals(
  filter: { txid?: string; paymentId?: string } = {},
): Promise<TRefundApprovalView[]> {
  const rows = await db.refundApproval.findMany({
    where: { status: "PENDING", txid: filter.txid, paymentId: filter.paymentId },
    include: { requestedBy: true },
    orderBy: { createdAt: "asc" },
    take: 200,
  });
  const now = new Date();
  return rows.map((row) => toRefundApprovalView(row, now));
}
