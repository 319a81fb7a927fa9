import "server-only";
import type { TMirrorOutcome } from "@/lib/db/mirror-write";
import { isoUtc, type TSqlRunner } from "@/lib/db/sql";
import type { TPixCharge } from "@/lib/gateway/schemas/pix-charge";
import { fullChargeFields, rawOf } from "./mirror-fields";
import { knownChargeStatuses, statusMove } from "./status";

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
const statusMovesByNext = new Map<string, Record<string, string>>();

function statusMovesTo(next: string): Record<string, string> {
  let moves = statusMovesByNext.get(next);
  if (!moves) {
    moves = Object.fromEntries(knownChargeStatuses.map((current) => [current, statusMove(current, next, true)]));
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

// traceParent: the creating span (lib/telemetry), so the webhook that pays the charge joins its trace.
// gatewayCheckedAt: the reconciler's rolling check of older rows stamps it; no write path touches it.
export const localChargeColumns = [
  "txid",
  "refundedCents",
  "createdById",
  "syncedAt",
  "createdAt",
  "updatedAt",
  "traceParent",
  "gatewayCheckedAt",
];

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

// $1 charges, $2 now, $3 onlyMatching; the planner guesses 100 JSON entries, so lateral + `= ANY` keep the primary key.
const writeFullChargesSql = `
WITH "incoming" AS (
  SELECT x."txid", ${upstreamColumnNames.map(incomingColumn).join(", ")}, x."statusMoves",
    ($2::timestamptz AT TIME ZONE 'UTC') AS "now"
  FROM ${incomingRecordset}
), "current" AS (
  SELECT c."txid", ${chargeChangeColumns
    .map((column) =>
      changeColumnType(column) === "timestamp"
        ? `${isoUtc(`c.${quoted(column)}`)} AS ${quoted(column)}`
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

// The webhook's common case: one statement for many charges; the caller holds each charge's lock in `run`'s transaction.
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
