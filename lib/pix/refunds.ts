import "server-only";
import { randomUUID } from "node:crypto";
import { admitMoneyReturn } from "@/lib/approvals/money-policy";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import type { TMirrorClient } from "@/lib/db/mirror-write";
import { readDb } from "@/lib/db/read-replica";
import { AppError } from "@/lib/errors";
import { isCertainlyNotApplied, isGatewayError, isGatewayNotFound, toAppError } from "@/lib/gateway/errors";
import { getPixCharge } from "@/lib/gateway/pix-charges";
import * as gateway from "@/lib/gateway/pix-refunds";
import type { TPixRefund } from "@/lib/gateway/schemas/pix-refund";
import type { Prisma } from "@/lib/generated/prisma/client";
import { findClaimedResultIds, runIdempotent, type TIdempotentAttempt } from "@/lib/idempotency/idempotency";
import { periodBounds } from "@/lib/list/period";
import { findListPage, orderByThen, type TListPage } from "@/lib/list/query";
import { defineListSpec } from "@/lib/list/spec";
import { log } from "@/lib/log";
import { readConfirmedCopy } from "@/lib/reconcile/drift";
import { centsToAmount } from "@/lib/shared/money";
import { activeTraceParent } from "@/lib/telemetry/tracing";
import { getPixChargeView } from "./charges";
import {
  isPixRefundBehindMirror,
  lockPixCharge,
  upsertPixChargeFromGateway,
  upsertPixRefundFromGateway,
} from "./mirror";
import { type TPixRefundFilters, type TRequestPixRefund, ZPixRefundFilters } from "./schemas";
import type { TPixRefundListRow, TPixRefundPanel } from "./types";
import { refundedCentsOf, refundWindowDaysLeft, remainingRefundableCents, toPixRefundListRow } from "./views";

const pixRefundPageSize = 20;
export const pixRefundIdempotencyScope = "pix_refund";

// A refund holds its charge's lock during the upstream call: room for a queue, each bounded by the gateway timeout.
const refundTransactionOptions = { maxWait: 60_000, timeout: 120_000 };

const auditFields = (context: TChangeContext, txid: string) => auditFieldsOf(context, "pix_charge", txid);

async function loadCharge(tx: TMirrorClient, txid: string) {
  return tx.pixCharge.findUnique({ where: { txid }, include: { refunds: true } });
}

// What refunds waiting for a second admin hold back (an expired one holds nothing).
async function heldRefundCents(
  client: TMirrorClient,
  txid: string,
  options: { exceptApprovalId?: string; now?: Date } = {},
): Promise<number> {
  const { _sum } = await client.refundApproval.aggregate({
    where: {
      txid,
      status: "PENDING",
      expiresAt: { gt: options.now ?? new Date() },
      id: options.exceptApprovalId ? { not: options.exceptApprovalId } : undefined,
    },
    _sum: { amountCents: true },
  });
  return _sum.amountCents ?? 0;
}

// The mirror decides; upstream is read again only when the mirror would refuse (a payment or failed refund may be new).
async function checkRefundable(tx: TMirrorClient, txid: string, amountCents: number, held: number) {
  let charge = await loadCharge(tx, txid);
  const allows = (current: typeof charge) =>
    !!current && amountCents <= remainingRefundableCents(current, current.refunds) - held;
  if (!allows(charge)) {
    try {
      await upsertPixChargeFromGateway(await getPixCharge(txid), { client: tx });
    } catch (error) {
      if (!isGatewayNotFound(error)) throw toAppError(error);
    }
    charge = await loadCharge(tx, txid);
  }
  if (!charge) throw new AppError("NOT_FOUND", "pix.errors.chargeNotFound");
  if (!["PAID", "PARTIALLY REFUNDED", "REFUNDED"].includes(charge.status)) {
    throw new AppError("CONFLICT", "pix.refunds.errors.notPaid", {
      params: { status: charge.status },
    });
  }
  if (refundWindowDaysLeft(charge, new Date()) === 0) {
    throw new AppError("CONFLICT", "pix.refunds.errors.windowClosed");
  }
  const remaining = Math.max(0, remainingRefundableCents(charge, charge.refunds) - held);
  if (amountCents > remaining) {
    throw new AppError(
      "UNPROCESSABLE",
      remaining === 0
        ? "pix.refunds.errors.exceedsRemainingFullyRefunded"
        : "pix.refunds.errors.exceedsRemainingAmount",
      { params: { remaining: remaining / 100 }, fieldErrors: { amountCents: "exceedsRemaining" } },
    );
  }
  return charge;
}

// Under the charge's lock: refuses what the charge cannot refund now, counting what others hold back.
export async function assertPixRefundable(tx: TMirrorClient, txid: string, amountCents: number): Promise<void> {
  await checkRefundable(tx, txid, amountCents, await heldRefundCents(tx, txid));
}

// The refund row already counts towards the remaining amount, so a failed charge read only leaves the status behind.
async function mirrorRefund(tx: TMirrorClient, refund: TPixRefund, requestedById: string | null): Promise<void> {
  await upsertPixRefundFromGateway(refund, { client: tx, requestedById, traceParent: activeTraceParent() });
  try {
    await upsertPixChargeFromGateway(await getPixCharge(refund.pixChargeTxid), { client: tx });
  } catch (error) {
    log.warn({ err: error, txid: refund.pixChargeTxid }, "pix charge read after a refund failed");
  }
}

type TEarlierAttempt = { kind: "found"; refund: TPixRefund } | { kind: "none" } | { kind: "unsure" };

async function listChargeRefunds(txid: string): Promise<TPixRefund[]> {
  const refunds: TPixRefund[] = [];
  for (let page = 0; ; page += 1) {
    const result = await gateway.listPixRefunds({ pixChargeTxid: txid, page, size: 100 });
    refunds.push(...result.content);
    if (page + 1 >= result.totalPages) return refunds;
  }
}

// The spec promises userReference (our key) only "on read" (4.5): unclaimed refunds are read by id; one without it
// could be this attempt's, so it is unsure and never requested again blindly.
async function findRefundOfEarlierAttempt(tx: TMirrorClient, txid: string, key: string): Promise<TEarlierAttempt> {
  const listed = await listChargeRefunds(txid);
  const direct = listed.find((refund) => refund.userReference === key);
  if (direct) return { kind: "found", refund: direct };
  const recordedByOtherKeys = await findClaimedResultIds(
    pixRefundIdempotencyScope,
    listed.map((refund) => refund.pixRefundId),
    tx,
  );
  let isUnsure = false;
  for (const item of listed) {
    if (item.userReference || recordedByOtherKeys.has(item.pixRefundId)) continue;
    const refund = await gateway.getPixRefund(item.pixRefundId);
    if (refund.userReference === key) return { kind: "found", refund };
    if (!refund.userReference) isUnsure = true;
  }
  return isUnsure ? { kind: "unsure" } : { kind: "none" };
}

// A refund that may already have gone through: held for an admin (send again or mark as not sent), never resent.
export class PixRefundHeldError extends AppError {
  readonly approvalId: string;

  constructor(approvalId: string) {
    super("CONFLICT", "pix.refunds.errors.outcomeUnknownHeld");
    this.name = "PixRefundHeldError";
    this.approvalId = approvalId;
  }
}

class EarlierAttemptUnsureError extends Error {}

// One hold per unsure key, whatever the retries, until an admin decides (no expiry: the money may be gone).
const unsureRefundHoldUntil = new Date("9999-12-31T00:00:00Z");

async function holdUnsureRefund(
  input: TRequestPixRefund,
  requestedById: string | null,
  context: TChangeContext,
): Promise<string> {
  const { idempotencyKey, txid, amountCents, description } = input;
  const existing = await db.refundApproval.findUnique({ where: { recoveryOfKey: idempotencyKey } });
  if (existing) return existing.id;
  if (!requestedById) throw new AppError("INTERNAL", "pix.refunds.errors.requesterRequired");
  // Two retries at once: the second finds the first one's hold.
  const heldByOther = async (error: unknown) => {
    const other = await db.refundApproval.findUnique({ where: { recoveryOfKey: idempotencyKey } });
    if (!other) throw error;
    return other.id;
  };
  return inTransaction(async (tx) => {
    const approval = await tx.refundApproval.create({
      data: {
        kind: "PIX_REFUND_RECOVERY",
        reason: "unsureRecovery",
        txid,
        amountCents,
        description: description ?? null,
        recoveryOfKey: idempotencyKey,
        // The key a "send again" uses: a new refund, never a recovery of the unsure one.
        idempotencyKey: randomUUID(),
        requestedById,
        expiresAt: unsureRefundHoldUntil,
      },
    });
    await recordAudit(
      {
        ...auditFields(context, txid),
        action: "refund_approval.requested",
        metadata: { approvalId: approval.id, amountCents, reason: "unsureRecovery", idempotencyKey },
      },
      tx,
    );
    return approval.id;
  }).catch(heldByOther);
}

// An approved refund takes the one refund path: its own hold is not counted, check/record run under the charge's lock.
// `isSteppedUp` lifts the per-charge step-up, not the daily limit.
export type TRefundHooks = {
  approvalId?: string;
  requestedById?: string;
  isSteppedUp?: boolean;
  check?: (tx: TMirrorClient) => Promise<void>;
  record?: (tx: TMirrorClient, pixRefundId: string) => Promise<void>;
};

// The charge's lock is held across the upstream call, so concurrent refunds never exceed what was paid nor pass the
// money policy together. An upstream refusal (409, 422) changes nothing locally.
export async function requestPixRefund(
  input: TRequestPixRefund,
  context: TChangeContext,
  hooks: TRefundHooks = {},
): Promise<{ pixRefundId: string }> {
  const { idempotencyKey, txid, amountCents, description } = input;
  const requestedById = hooks.requestedById ?? context.actor?.id ?? null;
  let isCalled = false;
  let isEarlierRuledOut = false;
  const refundOnce = async (attempt: TIdempotentAttempt): Promise<string> => {
    let created: TPixRefund | undefined;
    isEarlierRuledOut = !attempt.isRecovery;
    try {
      return await inTransaction(async (tx) => {
        await lockPixCharge(tx, txid);
        const earlier = attempt.isRecovery
          ? await findRefundOfEarlierAttempt(tx, txid, attempt.key)
          : ({ kind: "none" } as const);
        if (earlier.kind === "unsure") throw new EarlierAttemptUnsureError();
        let priorCents = 0;
        if (earlier.kind === "none") {
          isEarlierRuledOut = true;
          await hooks.check?.(tx);
          const held = await heldRefundCents(tx, txid, { exceptApprovalId: hooks.approvalId });
          const charge = await checkRefundable(tx, txid, amountCents, held);
          priorCents = refundedCentsOf(charge.refunds) + held;
        }
        // A refund the earlier attempt already made is counted against its person, not checked again.
        await admitMoneyReturn(tx, {
          kind: "PIX_REFUND",
          resourceId: txid,
          amountCents,
          priorCents,
          idempotencyKey: attempt.key,
          initiatedById: requestedById,
          clearance: hooks.approvalId || earlier.kind === "found" ? "approved" : hooks.isSteppedUp ? "stepUp" : "none",
        });
        isCalled = true;
        created =
          earlier.kind === "found"
            ? earlier.refund
            : await gateway.requestPixRefund({
                txid,
                amount: centsToAmount(amountCents),
                description,
                userReference: attempt.key,
              });
        await mirrorRefund(tx, created, requestedById);
        await hooks.record?.(tx, created.pixRefundId);
        await attempt.succeed(tx, created.pixRefundId);
        await recordAudit(
          {
            ...auditFields(context, txid),
            action: "pix_refund.requested",
            metadata: {
              pixRefundId: created.pixRefundId,
              amountCents,
              statusCode: created.status.code,
              ...(earlier.kind === "found" ? { recovered: true } : {}),
            },
          },
          tx,
        );
        return created.pixRefundId;
      }, refundTransactionOptions);
    } catch (error) {
      if (!created) throw error;
      // The money moved upstream but the local commit failed: mirror it outside the transaction.
      log.error({ err: error, txid, pixRefundId: created.pixRefundId }, "pix refund done upstream, local write failed");
      await upsertPixChargeFromGateway(await getPixCharge(txid)).catch(() => undefined);
      return created.pixRefundId;
    }
  };
  try {
    const { resultId } = await runIdempotent({
      scope: pixRefundIdempotencyScope,
      key: idempotencyKey,
      request: { txid, amountCents, description },
      actorId: requestedById,
      // A recovery whose look-up failed or was unsure leaves the key open: the next attempt must look again.
      isCertainlyNotApplied: (error) => isEarlierRuledOut && (!isCalled || isCertainlyNotApplied(error)),
      run: refundOnce,
    });
    return { pixRefundId: resultId };
  } catch (error) {
    if (error instanceof EarlierAttemptUnsureError) {
      throw new PixRefundHeldError(await holdUnsureRefund(input, requestedById, context));
    }
    if (isGatewayError(error)) {
      await recordAudit({
        ...auditFields(context, txid),
        action: "pix_refund.failed",
        metadata: { amountCents, reason: error.message.slice(0, 300) },
      });
    }
    throw toAppError(error);
  }
}

// "Refresh from gateway" on one refund: an authoritative read; an unseen charge is read first, so the refund has a home.
export async function refreshPixRefundFromGateway(pixRefundId: string): Promise<TPixRefundListRow> {
  const read = async () => {
    try {
      return await gateway.getPixRefund(pixRefundId);
    } catch (error) {
      if (isGatewayNotFound(error)) throw new AppError("NOT_FOUND", "pix.refunds.errors.notFound");
      throw toAppError(error);
    }
  };
  const { copy: refund, isConfirmedBehind } = await readConfirmedCopy(read, isPixRefundBehindMirror);
  if (!(await db.pixCharge.findUnique({ where: { txid: refund.pixChargeTxid }, select: { txid: true } }))) {
    await upsertPixChargeFromGateway(await getPixCharge(refund.pixChargeTxid)).catch((error: unknown) => {
      throw toAppError(error);
    });
  }
  const written = await upsertPixRefundFromGateway(refund, {
    authority: { source: "refresh", isBackwardConfirmed: isConfirmedBehind },
  });
  if (!written) throw new AppError("NOT_FOUND", "pix.refunds.errors.notFound");
  return toPixRefundListRow(written.refund);
}

export async function getRefundPanel(txid: string): Promise<TPixRefundPanel | null> {
  const view = await getPixChargeView(txid);
  if (!view) return null;
  const { status, payment, refunds, refundedCents, remainingRefundableCents, canRefund } = view;
  const { refundWindowDaysLeft, refundWindowClosesAt } = view;
  return {
    txid,
    status,
    payment,
    refunds,
    refundedCents,
    remainingRefundableCents,
    refundWindowDaysLeft,
    refundWindowClosesAt,
    canRefund,
  };
}

const sortFields: Record<TPixRefundFilters["sort"], "creationDate" | "amountCents" | "statusCode" | "settlementDate"> =
  {
    creationDate: "creationDate",
    amount: "amountCents",
    statusCode: "statusCode",
    settlementDate: "settlementDate",
  };

function pixRefundListWhere(filters: Omit<TPixRefundFilters, "sort" | "order" | "page">) {
  const where: Prisma.PixRefundWhereInput = {
    creationDate: periodBounds(filters),
    txid: filters.txid ? { contains: filters.txid, mode: "insensitive" } : undefined,
    statusCode: filters.statusCode,
  };
  return where;
}

export const pixRefundList = defineListSpec({
  schema: ZPixRefundFilters,
  where: pixRefundListWhere,
  select: {
    pixRefundId: true,
    txid: true,
    refundEndToEnd: true,
    amountCents: true,
    statusCode: true,
    statusDescription: true,
    statusReason: true,
    description: true,
    creationDate: true,
    settlementDate: true,
  } satisfies Prisma.PixRefundSelect,
  field: "creationDate",
  tieBreaker: "pixRefundId",
});

export async function findPixRefunds(
  filters: TPixRefundFilters,
  pageSize = pixRefundPageSize,
): Promise<TListPage<TPixRefundListRow>> {
  const reader = await readDb();
  const where = pixRefundListWhere(filters);
  return findListPage(
    { page: filters.page, pageSize },
    {
      sumField: "amountCents",
      aggregate: () => reader.pixRefund.aggregate({ where, _count: { _all: true }, _sum: { amountCents: true } }),
      findMany: async (window) =>
        (
          await reader.pixRefund.findMany({
            where,
            select: pixRefundList.select,
            orderBy: orderByThen(sortFields[filters.sort], "pixRefundId", filters.order),
            ...window,
          })
        ).map(toPixRefundListRow),
    },
  );
}
