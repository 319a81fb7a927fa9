import "server-only";
import { db, withTransaction } from "@/lib/db/client";
import { takeTransactionLock } from "@/lib/db/locks";
import { changedFields, type TMirrorClient, type TMirrorOutcome } from "@/lib/db/mirror-write";
import { runSql, type TSqlRunner } from "@/lib/db/sql";
import { publishChange } from "@/lib/events/bus";
import { getPixCharge } from "@/lib/gateway/pix-charges";
import type { TPixCharge, TPixChargeListItem } from "@/lib/gateway/schemas/pix-charge";
import type { TPixRefund } from "@/lib/gateway/schemas/pix-refund";
import type { PixCharge, PixRefund, Prisma } from "@/lib/generated/prisma/client";
import { upsertMirrorRow } from "@/lib/mirror/upsert";
import { readConfirmedCopy, type TDriftSource, type TMirrorAuthority } from "@/lib/reconcile/drift";
import { onlyDigits } from "@/lib/shared/cpf-cnpj";
import { amountToCents } from "@/lib/shared/money";

// Local mirror of upstream Pix charges and refunds (docs/pix.md): idempotent writes refuse stale snapshots, as answers
// arrive out of order; a twice-confirmed authoritative read may move it back and records the drift.

// Set only for a single-resource gateway read: `isBackwardConfirmed` when a second read confirmed a move back.

// One lock per charge, shared by mirror writes and refund requests; held until the transaction ends.
export async function lockPixCharge(tx: TMirrorClient, txid: string): Promise<void> {
  await takeTransactionLock(tx, pixChargeLockKey(txid));
}

export function pixChargeLockKey(txid: string): string {
  return `pix_charge:${txid}`;
}

// Spec 3.5: a refund that did not finish frees its amount again.
export const failedRefundStatusCodes = [4, 99];
const terminalRefundStatusCodes = [3, ...failedRefundStatusCodes];

const paidFamily = ["PAID", "PARTIALLY REFUNDED", "REFUNDED"];
const unpaidRank: Record<string, number> = { CREATED: 0, ACTIVE: 1 };
const finalUnpaid = ["EXPIRED", "Cancelada"];

function isFullCharge(charge: TPixCharge | TPixChargeListItem): charge is TPixCharge {
  return "devolutionAllowed" in charge;
}

// CREATED < ACTIVE < (PAID family | EXPIRED | Cancelada); a move back within PAID needs a full read (all refunds).
type StatusMove = "accept" | "refuse" | "if_refunds_known";

function statusMove(current: string, next: string, isFull: boolean): StatusMove {
  if (current === next) return "accept";
  if (current in unpaidRank)
    return !(next in unpaidRank) || unpaidRank[next]! > unpaidRank[current]! ? "accept" : "refuse";
  if (finalUnpaid.includes(current)) return "refuse";
  if (!paidFamily.includes(current)) return "accept"; // an unknown status: nothing to compare with
  if (!paidFamily.includes(next)) return !(next in unpaidRank) && !finalUnpaid.includes(next) ? "accept" : "refuse";
  if (paidFamily.indexOf(next) > paidFamily.indexOf(current)) return "accept";
  return isFull ? "if_refunds_known" : "refuse";
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

// What a list item carries; a list item never erases what only a full read has (QR text, payment).
function listItemFields(item: TPixChargeListItem) {
  const document = (value: string | null | undefined) => (value ? onlyDigits(value) : null);
  return {
    amountCents: amountToCents(item.amount),
    status: item.status,
    creationDate: new Date(item.calendar.creationDate),
    expirationSeconds: item.calendar.expiration,
    expiresAt: new Date(item.calendar.expirationDate),
    debtorName: item.debtor?.name ?? null,
    debtorCpf: document(item.debtor?.naturalPersonIdentification),
    debtorCnpj: document(item.debtor?.legalPersonIdentification),
    description: item.description,
    userReference: item.userReference,
  };
}

function chargeFields(charge: TPixCharge | TPixChargeListItem) {
  return isFullCharge(charge) ? fullChargeFields(charge) : listItemFields(charge);
}

function fullChargeFields(charge: TPixCharge) {
  return {
    ...listItemFields(charge),
    pixCopyAndPaste: charge.pixCopyAndPaste,
    paidAt: charge.pix ? new Date(charge.pix.creationDate) : null,
    payerName: charge.pix?.payerName ?? null,
    payerDocument: charge.pix ? onlyDigits(charge.pix.payerDocumentNumber) : null,
    endToEndId: charge.pix?.endToEndId ?? null,
    paidAmountCents: charge.pix ? amountToCents(charge.pix.amount) : null,
    devolutionAllowed: charge.devolutionAllowed,
  };
}

// The QR PNG is rendered again from pixCopyAndPaste, so it is not kept; refunds live in their own rows.
function rawOf(
  charge: TPixCharge | TPixChargeListItem,
  previous: Prisma.JsonValue | undefined,
): Prisma.InputJsonObject {
  const { qrCodeBase64: _qr, devolutions: _devolutions, ...rest } = charge as Partial<TPixCharge> & TPixChargeListItem;
  const base =
    !isFullCharge(charge) && previous && typeof previous === "object" && !Array.isArray(previous) ? previous : {};
  return { ...base, ...rest } as Prisma.InputJsonObject;
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
        },
      }),
    move: async (existing) => ((await acceptsStatus(tx, existing.status, charge)) ? "accept" : "backward"),
    authority: options.authority,
    // The gateway's own copy disagreeing on the status it refuses, or on the amount: a drift, corrected.
    drift: (existing, move) =>
      move === "backward" || existing.amountCents !== fields.amountCents
        ? { kind: "pix_charge", resourceId: charge.txid, mirror: existing, gateway: { ...existing, ...fields } }
        : null,
    data: (existing) => ({ ...fields, raw: rawOf(charge, existing.raw) }),
    update: (data, existing) =>
      tx.pixCharge.update({
        where,
        data: { ...data, createdById: existing.createdById ?? options.createdById ?? undefined },
      }),
  });
  return outcome;
}

function refundFields(refund: TPixRefund) {
  return {
    txid: refund.pixChargeTxid,
    amountCents: amountToCents(refund.amount),
    statusCode: refund.status.code,
    statusDescription: refund.status.description,
    statusReason: refund.statusReason,
    description: refund.description,
    refundEndToEnd: refund.refundEndToEnd,
    creationDate: new Date(refund.creationDate),
    settlementDate: refund.settlementDate ? new Date(refund.settlementDate) : null,
    raw: refund as unknown as Prisma.InputJsonObject,
  };
}

// CREATED (1) < PROCESSING (2) < a final status (RETURNED, NOT FINISHED, ERROR), which never changes.
function acceptsRefundStatus(current: number, next: number): boolean {
  if (current === next) return true;
  if (terminalRefundStatusCodes.includes(current)) return false;
  return terminalRefundStatusCodes.includes(next) || next > current;
}

type UpsertRefundOptions = {
  client?: TMirrorClient;
  requestedById?: string | null;
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
        data: { pixRefundId: refund.pixRefundId, ...fields, syncedAt, requestedById: options.requestedById ?? null },
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
        data: { ...data, requestedById: existing.requestedById ?? options.requestedById ?? undefined },
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

/** Writes a charge (full read or list item) with a full read's refunds; `client` joins the caller's transaction. */
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

export const chargeChangeColumns = [
  "status",
  "amountCents",
  "paidAt",
  "paidAmountCents",
  "payerName",
  "endToEndId",
  "refundedCents",
  "devolutionAllowed",
] as const;
type TChargeChangeView = Record<(typeof chargeChangeColumns)[number], unknown>;

// statusMove from every known status to `next`, for the statement below; an unknown status accepts.
const knownStatuses = [...Object.keys(unpaidRank), ...finalUnpaid, ...paidFamily];
const statusMovesByNext = new Map<string, Record<string, string>>();

function statusMovesTo(next: string): Record<string, string> {
  let moves = statusMovesByNext.get(next);
  if (!moves) {
    moves = Object.fromEntries(knownStatuses.map((current) => [current, statusMove(current, next, true)]));
    statusMovesByNext.set(next, moves);
  }
  return moves;
}

type SqlColumnType = "text" | "int" | "boolean" | "timestamp" | "jsonb";

// Full-read columns with SQL types; both write paths derive from this (with localChargeColumns: all of PixCharge).
export const upstreamChargeColumns = {
  amountCents: "int",
  status: "text",
  creationDate: "timestamp",
  expirationSeconds: "int",
  expiresAt: "timestamp",
  debtorName: "text",
  debtorCpf: "text",
  debtorCnpj: "text",
  description: "text",
  userReference: "text",
  pixCopyAndPaste: "text",
  paidAt: "timestamp",
  payerName: "text",
  payerDocument: "text",
  endToEndId: "text",
  paidAmountCents: "int",
  devolutionAllowed: "boolean",
  raw: "jsonb",
} as const satisfies Record<keyof ReturnType<typeof fullChargeFields> | "raw", SqlColumnType>;

export const localChargeColumns = ["txid", "refundedCents", "createdById", "syncedAt", "createdAt", "updatedAt"];

type UpstreamChargeColumn = keyof typeof upstreamChargeColumns;
const upstreamColumnNames = Object.keys(upstreamChargeColumns) as UpstreamChargeColumn[];
const quoted = (column: string) => `"${column}"`;
const columnList = (prefix: string) => upstreamColumnNames.map((column) => `${prefix}${quoted(column)}`).join(", ");

// Timestamps go in as ISO strings and are stored as the UTC wall time Prisma stores (lib/db/sql.ts).
function incomingColumn(column: UpstreamChargeColumn): string {
  const value = `x.${quoted(column)}`;
  return `${upstreamChargeColumns[column] === "timestamp" ? `(${value}::timestamptz AT TIME ZONE 'UTC')` : value} AS ${quoted(column)}`;
}

// Incoming charges as one JSON array (one charge or a batch, pg and PGlite alike); timestamps as text.
const recordsetType = (type: SqlColumnType) => (type === "timestamp" ? "text" : type);
const incomingRecordset = `jsonb_to_recordset($1::jsonb) AS x("txid" text, ${upstreamColumnNames
  .map((column) => `${quoted(column)} ${recordsetType(upstreamChargeColumns[column])}`)
  .join(", ")}, "statusMoves" jsonb)`;

const changeColumnType = (column: (typeof chargeChangeColumns)[number]): SqlColumnType =>
  column === "refundedCents" ? "int" : upstreamChargeColumns[column];

// $1 charges (one per txid), $2 now, $3 onlyMatching. The planner guesses 100 JSON entries: the lateral lookup and
// `= ANY` keep PixCharge on its primary key. onlyMatching writes only same-amount rows and creates none.
const writeFullChargesSql = `
WITH "incoming" AS (
  SELECT x."txid", ${upstreamColumnNames.map(incomingColumn).join(", ")}, x."statusMoves",
    ($2::timestamptz AT TIME ZONE 'UTC') AS "now"
  FROM ${incomingRecordset}
), "current" AS (
  SELECT c."txid", ${chargeChangeColumns
    .map((column) =>
      changeColumnType(column) === "timestamp"
        ? `to_char(c.${quoted(column)}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${quoted(column)}`
        : `c.${quoted(column)}`,
    )
    .join(", ")},
    CASE COALESCE(i."statusMoves" ->> c."status", 'accept')
      WHEN 'accept' THEN true
      WHEN 'if_refunds_known' THEN NOT EXISTS (SELECT 1 FROM "PixRefund" AS r WHERE r."txid" = c."txid")
      ELSE false
    END AS "isAccepted",
    (c."amountCents" = i."amountCents" AND (i."paidAmountCents" IS NULL OR i."paidAmountCents" = i."amountCents"))
      AS "isMatching",
    (${columnList("c.")}) IS DISTINCT FROM (${columnList("i.")}) AS "isChanged"
  FROM "incoming" AS i CROSS JOIN LATERAL (SELECT * FROM "PixCharge" AS p WHERE p."txid" = i."txid" LIMIT 1) AS c
), "updated" AS (
  UPDATE "PixCharge" AS c SET
    ${upstreamColumnNames.map((column) => `${quoted(column)} = i.${quoted(column)}`).join(", ")}, "syncedAt" = i."now",
    "updatedAt" = CASE WHEN o."isChanged" THEN i."now" ELSE c."updatedAt" END
  FROM "incoming" AS i JOIN "current" AS o ON o."txid" = i."txid"
  WHERE c."txid" = i."txid" AND o."isAccepted" AND (o."isMatching" OR NOT $3::boolean)
    AND c."txid" = ANY (ARRAY(SELECT "txid" FROM "current"))
  RETURNING 1
), "created" AS (
  INSERT INTO "PixCharge" ("txid", ${columnList("")}, "syncedAt", "createdAt", "updatedAt")
  SELECT "txid", ${columnList("")}, "now", "now", "now"
  FROM "incoming" AS i WHERE NOT EXISTS (SELECT 1 FROM "current" AS o WHERE o."txid" = i."txid") AND NOT $3::boolean
  ON CONFLICT ("txid") DO NOTHING
  RETURNING "txid"
)
SELECT i."txid" AS "incomingTxid", EXISTS (SELECT 1 FROM "created" AS n WHERE n."txid" = i."txid") AS "isCreated", o.*
FROM "incoming" AS i LEFT JOIN "current" AS o ON o."txid" = i."txid"`;

function sqlParameter(type: SqlColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === "timestamp") return (value as Date).toISOString();
  return value;
}

type TWrittenChargeRow = TChargeChangeView & {
  incomingTxid: string;
  isCreated: boolean;
  isAccepted: boolean | null;
  isMatching: boolean | null;
  isChanged: boolean | null;
};

type TWrittenCharge = { outcome: TMirrorOutcome; before: TChargeChangeView | null; after: TChargeChangeView };

type TChargeFields = ReturnType<typeof fullChargeFields>;

function incomingCharge(charge: TPixCharge, fields: TChargeFields): Record<string, unknown> {
  const values: Record<UpstreamChargeColumn, unknown> = { ...fields, raw: rawOf(charge, undefined) };
  return {
    txid: charge.txid,
    ...Object.fromEntries(
      upstreamColumnNames.map((column) => [column, sqlParameter(upstreamChargeColumns[column], values[column])]),
    ),
    statusMoves: statusMovesTo(fields.status),
  };
}

function writtenCharge(
  txid: string,
  fields: TChargeFields,
  row: TWrittenChargeRow,
  onlyMatching: boolean,
): TWrittenCharge | null {
  const { isCreated, isAccepted, isMatching, isChanged } = row;
  if (onlyMatching && !isMatching) return null;
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  const written = (refundedCents: unknown): TChargeChangeView => ({
    status: fields.status,
    amountCents: fields.amountCents,
    paidAt: iso(fields.paidAt),
    paidAmountCents: fields.paidAmountCents,
    payerName: fields.payerName,
    endToEndId: fields.endToEndId,
    refundedCents,
    devolutionAllowed: fields.devolutionAllowed,
  });
  if (isCreated) return { outcome: "created", before: null, after: written(0) };
  // No row and none created: someone wrote it without the lock; the caller's transaction fails and is retried.
  if (isAccepted === null) throw new Error(`the charge ${txid} appeared while its lock was held`);
  const before = Object.fromEntries(chargeChangeColumns.map((column) => [column, row[column]])) as TChargeChangeView;
  if (!isAccepted) return { outcome: "stale", before, after: before };
  return { outcome: isChanged ? "updated" : "unchanged", before, after: written(before.refundedCents) };
}

// The webhook's common case, one statement for many charges (full reads, no refunds, distinct txids). The caller holds
// each charge's lock in `run`'s transaction; onlyMatching answers null for other amounts. Ordered as input.
export async function writeFullChargesWithoutRefunds(
  run: TSqlRunner,
  charges: TPixCharge[],
  now: Date,
  options: { onlyMatching?: boolean } = {},
): Promise<Array<TWrittenCharge | null>> {
  if (charges.length === 0) return [];
  const incoming = charges.map((charge) => {
    if (charge.devolutions?.length)
      throw new Error("writeFullChargesWithoutRefunds: the charge carries refunds, use upsertPixChargeFromGateway");
    return { charge, fields: fullChargeFields(charge) };
  });
  const rows = await run<TWrittenChargeRow>(writeFullChargesSql, [
    JSON.stringify(incoming.map(({ charge, fields }) => incomingCharge(charge, fields))),
    now.toISOString(),
    options.onlyMatching === true,
  ]);
  const byTxid = new Map(rows.map((row) => [row.incomingTxid, row]));
  return incoming.map(({ charge, fields }) =>
    writtenCharge(charge.txid, fields, byTxid.get(charge.txid)!, options.onlyMatching === true),
  );
}

type TMirroredStates = { status: string; refunds: Array<{ pixRefundId: string; statusCode: number }> };

function readMirroredStates(txid: string): Promise<TMirroredStates | null> {
  return db.pixCharge.findUnique({
    where: { txid },
    select: { status: true, refunds: { select: { pixRefundId: true, statusCode: true } } },
  });
}

/** Whether the never-backwards rule would refuse this copy (of the charge or of one of its refunds). */
async function isChargeBehindMirror(charge: TPixCharge, mirrored: TMirroredStates | null): Promise<boolean> {
  if (!mirrored) return false;
  if (!(await acceptsStatus(db, mirrored.status, charge))) return true;
  return (charge.devolutions ?? []).some((refund) => {
    const row = mirrored.refunds.find((item) => item.pixRefundId === refund.pixRefundId);
    return row !== undefined && !acceptsRefundStatus(row.statusCode, refund.status.code);
  });
}

// Authoritative read (refresh, reconciliation, webhook confirmation): written even backwards once a second read
// confirms it, and the drift recorded. `mirrored` is the caller's concurrent read of the row.
export async function syncPixChargeFromGateway(
  txid: string,
  source: TDriftSource,
  options: { mirrored?: Promise<TMirroredPixCharge | null>; read?: () => Promise<TPixCharge> } = {},
): Promise<{ outcome: TMirrorOutcome; charge: TMirroredPixCharge; upstream: TPixCharge }> {
  const read = options.read ?? (() => getPixCharge(txid));
  const [first, mirrored] = await Promise.all([read(), options.mirrored]);
  const { copy, isConfirmedBehind } = await readConfirmedCopy(read, isPixChargeBehindMirror, { firstCopy: first });
  const result = await upsertPixChargeFromGateway(copy, {
    mirrored: isConfirmedBehind ? undefined : mirrored,
    authority: { source, isBackwardConfirmed: isConfirmedBehind },
  });
  return { ...result, upstream: copy };
}

/** The webhook's check before its transaction: would this copy move the mirror back? */
export async function isPixChargeBehindMirror(charge: TPixCharge): Promise<boolean> {
  return isChargeBehindMirror(charge, await readMirroredStates(charge.txid));
}

/** The webhook's check before its transaction: would this refund's copy move the mirror back? */
export async function isPixRefundBehindMirror(refund: TPixRefund): Promise<boolean> {
  const row = await db.pixRefund.findUnique({
    where: { pixRefundId: refund.pixRefundId },
    select: { statusCode: true },
  });
  return row !== null && !acceptsRefundStatus(row.statusCode, refund.status.code);
}
