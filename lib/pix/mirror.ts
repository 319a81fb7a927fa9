import "server-only";
import type { TRecordAuditInput } from "@/lib/audit/audit-log";
import { db, withTransaction } from "@/lib/db/client";
import { takeTransactionLock } from "@/lib/db/locks";
import { changedFields, type TMirrorClient, type TMirrorOutcome } from "@/lib/db/mirror-write";
import { runSql, type TSqlRunner } from "@/lib/db/sql";
import { publishChange } from "@/lib/events/bus";
import { getPixCharge } from "@/lib/gateway/pix-charges";
import type { TPixCharge, TPixChargeListItem } from "@/lib/gateway/schemas/pix-charge";
import type { TPixRefund } from "@/lib/gateway/schemas/pix-refund";
import type { PixCharge, PixRefund, Prisma } from "@/lib/generated/prisma/client";
import { recordCreated, type TCreatedRowTable } from "@/lib/mirror/record-created";
import { upsertMirrorRow } from "@/lib/mirror/upsert";
import { readConfirmedCopy, type TDriftSource, type TMirrorAuthority } from "@/lib/reconcile/drift";
import { chargeFields, fullChargeFields, isFullCharge, rawOf, refundFields } from "./mirror-fields";
import { acceptsRefundStatus, failedRefundStatusCodes, statusMove } from "./status";
import { pixReceivedStatuses } from "./types";

// Pix mirror (docs/pix.md): writes refuse stale snapshots (answers arrive out of order) unless a confirmed read corrects.

function isReceivedStatus(status: string): boolean {
  return (pixReceivedStatuses as readonly string[]).includes(status);
}

// One lock per charge, shared by mirror writes and refund requests; held until the transaction ends.
export async function lockPixCharge(tx: TMirrorClient, txid: string): Promise<void> {
  await takeTransactionLock(tx, pixChargeLockKey(txid));
}

export function pixChargeLockKey(txid: string): string {
  return `pix_charge:${txid}`;
}

async function acceptsStatus(
  tx: TMirrorClient,
  current: string,
  incoming: TPixCharge | TPixChargeListItem,
): Promise<boolean> {
  const move = statusMove(current, incoming.status, isFullCharge(incoming));
  if (move !== "if_refunds_known") return move === "accept";
  const known = new Set(((incoming as TPixCharge).devolutions ?? []).map((refund) => refund.pixRefundId));
  const mirrored = await tx.pixRefund.findMany({ where: { txid: incoming.txid }, select: { pixRefundId: true } });
  return mirrored.every((refund) => known.has(refund.pixRefundId));
}

// Sum of the refunds that hold money (every status but the failed ones), kept on the charge for lists.
async function recomputeRefundedCents(tx: TMirrorClient, txid: string): Promise<void> {
  const { _sum } = await tx.pixRefund.aggregate({
    where: { txid, statusCode: { notIn: failedRefundStatusCodes } },
    _sum: { amountCents: true },
  });
  await tx.pixCharge.updateMany({
    where: { txid, refundedCents: { not: _sum.amountCents ?? 0 } },
    data: { refundedCents: _sum.amountCents ?? 0 },
  });
}

type UpsertChargeOptions = {
  client?: TMirrorClient;
  createdById?: string | null;
  now?: Date;
  // findMirroredPixCharge's answer, when the caller has it (outside a transaction): saves the comparison's read.
  mirrored?: TMirroredPixCharge | null;
  authority?: TMirrorAuthority;
  // The creating span (lib/telemetry), so the webhook that pays the charge joins its trace.
  traceParent?: string;
};

async function writeCharge(
  tx: TMirrorClient,
  charge: TPixCharge | TPixChargeListItem,
  options: UpsertChargeOptions,
): Promise<TMirrorOutcome> {
  const syncedAt = options.now ?? new Date();
  const fields = chargeFields(charge);
  const where = { txid: charge.txid };
  const { outcome } = await upsertMirrorRow(tx, {
    lockKey: pixChargeLockKey(charge.txid),
    syncedAt,
    find: () => tx.pixCharge.findUnique({ where }),
    create: () =>
      tx.pixCharge.create({
        data: {
          txid: charge.txid,
          ...fields,
          raw: rawOf(charge, undefined),
          syncedAt,
          createdById: options.createdById ?? null,
          traceParent: options.traceParent ?? null,
        },
      }),
    move: async (existing) => ((await acceptsStatus(tx, existing.status, charge)) ? "accept" : "backward"),
    authority: options.authority,
    // The gateway's own copy disagreeing on the status it refuses, or on the amount: a drift, held when money was paid.
    drift: (existing, move) =>
      move === "backward" || existing.amountCents !== fields.amountCents
        ? {
            kind: "pix_charge",
            resourceId: charge.txid,
            mirror: existing,
            gateway: { ...existing, ...fields },
            isHeldForReview: existing.amountCents !== fields.amountCents && isReceivedStatus(existing.status),
          }
        : null,
    data: (existing) => ({ ...fields, raw: rawOf(charge, existing.raw) }),
    update: (data, existing) =>
      tx.pixCharge.update({
        where,
        data: {
          ...data,
          createdById: existing.createdById ?? options.createdById ?? undefined,
          traceParent: options.traceParent,
        },
      }),
  });
  return outcome;
}

const createdPixCharge: TCreatedRowTable = { table: "PixCharge", idColumn: "txid" };

/** False when the mirror already had the charge (its webhook came first): nothing was written. */
export function recordCreatedPixCharge(created: {
  charge: TPixCharge;
  createdById: string | null;
  traceParent: string | null;
  idempotencyKey: { scope: string; key: string };
  audit: TRecordAuditInput;
  now: Date;
}): Promise<boolean> {
  const { charge, now } = created;
  return recordCreated(createdPixCharge, {
    lockKey: pixChargeLockKey(charge.txid),
    row: {
      txid: charge.txid,
      ...fullChargeFields(charge),
      raw: rawOf(charge, undefined),
      refundedCents: 0,
      syncedAt: now,
      gatewayCheckedAt: null,
      createdById: created.createdById,
      traceParent: created.traceParent,
    },
    idempotencyKey: created.idempotencyKey,
    audit: created.audit,
    change: { kind: "pix_charge", id: charge.txid },
    now,
  });
}

type UpsertRefundOptions = {
  client?: TMirrorClient;
  requestedById?: string | null;
  traceParent?: string | null;
  now?: Date;
  authority?: TMirrorAuthority;
};

async function writeRefund(
  tx: TMirrorClient,
  refund: TPixRefund,
  options: UpsertRefundOptions,
): Promise<{ outcome: TMirrorOutcome; refund: PixRefund }> {
  const syncedAt = options.now ?? new Date();
  const fields = refundFields(refund);
  const where = { pixRefundId: refund.pixRefundId };
  const { outcome, row } = await upsertMirrorRow(tx, {
    syncedAt,
    find: () => tx.pixRefund.findUnique({ where }),
    create: () =>
      tx.pixRefund.create({
        data: {
          pixRefundId: refund.pixRefundId,
          ...fields,
          syncedAt,
          requestedById: options.requestedById ?? null,
          traceParent: options.traceParent ?? null,
        },
      }),
    move: (existing) => (acceptsRefundStatus(existing.statusCode, fields.statusCode) ? "accept" : "backward"),
    authority: options.authority,
    drift: (existing, move) =>
      move === "backward"
        ? {
            kind: "pix_refund",
            resourceId: refund.pixRefundId,
            mirror: { statusCode: existing.statusCode, amountCents: existing.amountCents },
            gateway: { statusCode: fields.statusCode, amountCents: fields.amountCents },
          }
        : null,
    data: () => fields,
    update: (data, existing) =>
      tx.pixRefund.update({
        where,
        data: {
          ...data,
          requestedById: existing.requestedById ?? options.requestedById ?? undefined,
          traceParent: existing.traceParent ?? options.traceParent ?? undefined,
        },
      }),
    // A refund also changes its charge's page.
    publish: [
      { kind: "pix_refund", id: refund.pixRefundId },
      { kind: "pix_charge", id: refund.pixChargeTxid },
    ],
  });
  return { outcome, refund: row };
}

export type TMirroredPixCharge = PixCharge & { refunds: PixRefund[] };

const withRefunds = {
  refunds: { orderBy: [{ creationDate: "asc" }, { pixRefundId: "asc" }] },
} satisfies Prisma.PixChargeInclude;

// findMirroredPixCharge as one raw SQL statement; JSON timestamps are Prisma's zone-less UTC wall times.
const mirroredChargeSql = `
SELECT json_build_object(
  'charge', row_to_json(c),
  'refunds', COALESCE(
    (SELECT json_agg(r ORDER BY r."creationDate", r."pixRefundId") FROM "PixRefund" AS r WHERE r."txid" = c."txid"),
    '[]'::json)
) AS "mirrored"
FROM "PixCharge" AS c WHERE c."txid" = $1::text`;

const chargeDateColumns = ["creationDate", "expiresAt", "paidAt", "syncedAt", "createdAt", "updatedAt"] as const;
const refundDateColumns = ["creationDate", "settlementDate", "syncedAt", "createdAt", "updatedAt"] as const;

function withDates<T>(row: Record<string, unknown>, columns: readonly string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const column of columns) {
    const value = row[column];
    out[column] = typeof value === "string" ? new Date(`${value}Z`) : value;
  }
  return out as T;
}

async function readMirroredPixCharge(run: TSqlRunner, txid: string): Promise<TMirroredPixCharge | null> {
  const [row] = await run<{ mirrored: { charge: Record<string, unknown>; refunds: Record<string, unknown>[] } }>(
    mirroredChargeSql,
    [txid],
  );
  if (!row) return null;
  const { charge, refunds } = row.mirrored;
  return {
    ...withDates<PixCharge>(charge, chargeDateColumns),
    refunds: refunds.map((refund) => withDates<PixRefund>(refund, refundDateColumns)),
  };
}

// Read on every charge-page request and poll: one statement rather than Prisma's two.
export function findMirroredPixCharge(txid: string): Promise<TMirroredPixCharge | null> {
  return readMirroredPixCharge(runSql, txid);
}

function isUnchanged(existing: TMirroredPixCharge, charge: TPixCharge | TPixChargeListItem): boolean {
  if (Object.keys(changedFields(existing, { ...chargeFields(charge), raw: rawOf(charge, existing.raw) })).length > 0)
    return false;
  if (!isFullCharge(charge)) return true;
  return (charge.devolutions ?? []).every((refund) => {
    const mirrored = existing.refunds.find((row) => row.pixRefundId === refund.pixRefundId);
    return mirrored && Object.keys(changedFields(mirrored, refundFields(refund))).length === 0;
  });
}

// Most reads repeat the mirror: one lock-free SELECT, nothing written; syncedAt stays the last write's time.
async function confirmUnchanged(
  charge: TPixCharge | TPixChargeListItem,
  confirmedAt: Date,
  mirrored: TMirroredPixCharge | null | undefined,
): Promise<TMirroredPixCharge | null> {
  const existing = mirrored === undefined ? await readMirroredPixCharge(runSql, charge.txid) : mirrored;
  if (!existing || !isUnchanged(existing, charge)) return null;
  return { ...existing, syncedAt: confirmedAt };
}

export async function upsertPixChargeFromGateway(
  charge: TPixCharge | TPixChargeListItem,
  options: UpsertChargeOptions = {},
): Promise<{ outcome: TMirrorOutcome; charge: TMirroredPixCharge }> {
  const now = options.now ?? new Date();
  if (!options.client) {
    const confirmed = await confirmUnchanged(charge, now, options.mirrored);
    if (confirmed) return { outcome: "unchanged", charge: confirmed };
  }
  return withTransaction(options.client, async (tx) => {
    let outcome = await writeCharge(tx, charge, { ...options, now });
    if (outcome !== "stale" && isFullCharge(charge) && charge.devolutions?.length) {
      const refundOutcomes = [];
      for (const refund of charge.devolutions)
        refundOutcomes.push((await writeRefund(tx, refund, { now, authority: options.authority })).outcome);
      if (refundOutcomes.some((refundOutcome) => refundOutcome === "created" || refundOutcome === "updated")) {
        await recomputeRefundedCents(tx, charge.txid);
        if (outcome === "unchanged") outcome = "updated";
      }
    }
    if (outcome === "created" || outcome === "updated")
      await publishChange({ kind: "pix_charge", id: charge.txid }, tx);
    return {
      outcome,
      charge: await tx.pixCharge.findUniqueOrThrow({ where: { txid: charge.txid }, include: withRefunds }),
    };
  });
}

/** Returns null when the refund's charge is not mirrored yet (write the charge first). */
export async function upsertPixRefundFromGateway(
  refund: TPixRefund,
  options: UpsertRefundOptions = {},
): Promise<{ outcome: TMirrorOutcome; refund: PixRefund } | null> {
  return withTransaction(options.client, async (tx) => {
    await lockPixCharge(tx, refund.pixChargeTxid);
    const charge = await tx.pixCharge.findUnique({ where: { txid: refund.pixChargeTxid }, select: { txid: true } });
    if (!charge) return null;
    const result = await writeRefund(tx, refund, options);
    if (result.outcome !== "unchanged" && result.outcome !== "stale")
      await recomputeRefundedCents(tx, refund.pixChargeTxid);
    return result;
  });
}

/** Deletes a refund the gateway does not know (lib/reconcile/remove-unknown.ts); its charge's refunded sum follows. */
export async function removePixRefundFromMirror(tx: TMirrorClient, pixRefundId: string): Promise<boolean> {
  const refund = await tx.pixRefund.findUnique({ where: { pixRefundId }, select: { txid: true } });
  if (!refund) return false;
  await lockPixCharge(tx, refund.txid);
  const { count } = await tx.pixRefund.deleteMany({ where: { pixRefundId } });
  await recomputeRefundedCents(tx, refund.txid);
  return count === 1;
}

type TMirroredStates = { status: string; refunds: Array<{ pixRefundId: string; statusCode: number }> };

function readMirroredStates(txid: string): Promise<TMirroredStates | null> {
  return db.pixCharge.findUnique({
    where: { txid },
    select: { status: true, refunds: { select: { pixRefundId: true, statusCode: true } } },
  });
}

async function isChargeBehindMirror(charge: TPixCharge, mirrored: TMirroredStates | null): Promise<boolean> {
  if (!mirrored) return false;
  if (!(await acceptsStatus(db, mirrored.status, charge))) return true;
  return (charge.devolutions ?? []).some((refund) => {
    const row = mirrored.refunds.find((item) => item.pixRefundId === refund.pixRefundId);
    return row !== undefined && !acceptsRefundStatus(row.statusCode, refund.status.code);
  });
}

// Authoritative read: written even backwards once a second read confirms it, drift recorded; `mirrored` is the caller's read.
export async function syncPixChargeFromGateway(
  txid: string,
  source: TDriftSource,
  options: {
    mirrored?: Promise<TMirroredPixCharge | null>;
    read?: () => Promise<TPixCharge>;
    isReviewed?: boolean;
  } = {},
): Promise<{ outcome: TMirrorOutcome; charge: TMirroredPixCharge; upstream: TPixCharge }> {
  const read = options.read ?? (() => getPixCharge(txid));
  const [first, mirrored] = await Promise.all([read(), options.mirrored]);
  const { copy, isConfirmedBehind } = await readConfirmedCopy(read, isPixChargeBehindMirror, { firstCopy: first });
  const result = await upsertPixChargeFromGateway(copy, {
    mirrored: isConfirmedBehind ? undefined : mirrored,
    authority: { source, isBackwardConfirmed: isConfirmedBehind, isReviewed: options.isReviewed },
  });
  return { ...result, upstream: copy };
}

export async function isPixChargeBehindMirror(charge: TPixCharge): Promise<boolean> {
  return isChargeBehindMirror(charge, await readMirroredStates(charge.txid));
}

export async function isPixRefundBehindMirror(refund: TPixRefund): Promise<boolean> {
  const row = await db.pixRefund.findUnique({
    where: { pixRefundId: refund.pixRefundId },
    select: { statusCode: true },
  });
  return row !== null && !acceptsRefundStatus(row.statusCode, refund.status.code);
}
