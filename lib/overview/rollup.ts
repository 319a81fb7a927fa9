import "server-only";
import { cardPaymentStatuses } from "@/lib/card-payments/types";
import { getPostgresPool, inTransaction } from "@/lib/db/client";
import { transactionLockSql } from "@/lib/db/locks";
import { inSqlTransaction, prismaSqlRunner, type TSqlRunner } from "@/lib/db/sql";
import { timeZone } from "@/lib/i18n/config";
import { paymentLinkStatusCodes } from "@/lib/links/types";
import { toSaoPauloDay } from "@/lib/list/period";
import { pixReceivedStatuses, pixRefundStatusCodes } from "@/lib/pix/types";

// Closed São Paulo days' figures in OverviewDay, so a year adds up 365 rows (docs/overview.md, "Speed"). Triggers log each
// day a write touches; a day is read from OverviewDay only while closed and unchanged, so correctness never needs the job.

type TOverviewAmountPair = { count: number; cents: number };

export type TRolledDay = {
  day: string;
  pix: TOverviewAmountPair;
  card: TOverviewAmountPair;
  cardCancelled: TOverviewAmountPair;
  cardViaLink: TOverviewAmountPair;
  refundsReturned: TOverviewAmountPair;
  refundsCreated: TOverviewAmountPair;
  refundsProcessing: TOverviewAmountPair;
  pendingPix: TOverviewAmountPair;
  // Links paid with no mirrored charge or card payment behind them; Pix charges paid through links.
  link: TOverviewAmountPair;
  pixViaLink: TOverviewAmountPair;
};

const figureNames = [
  "pix",
  "card",
  "cardCancelled",
  "cardViaLink",
  "refundsReturned",
  "refundsCreated",
  "refundsProcessing",
  "pendingPix",
  "link",
  "pixViaLink",
] as const;

// Counts as int4, sums as text: the same on pg and PGlite (lib/db/sql.ts).
const rolledDaysSql = `
SELECT to_char(o.day, 'YYYY-MM-DD') AS day,
       ${figureNames.map((name) => `o."${name}Count" AS "${name}Count", o."${name}Cents"::text AS "${name}Cents"`).join(",\n       ")}
  FROM "OverviewDay" o
 WHERE o.day >= $1::date AND o.day <= $2::date AND o.day < $3::date
   AND NOT EXISTS (SELECT 1 FROM "OverviewDayChange" x WHERE x.day = o.day)`;

type TRolledDayRow = { day: string } & Record<`${(typeof figureNames)[number]}Count`, number> &
  Record<`${(typeof figureNames)[number]}Cents`, string>;

export async function readRolledDays(
  run: TSqlRunner,
  range: { from: string; to: string; today: string },
): Promise<TRolledDay[]> {
  const rows = await run<TRolledDayRow>(rolledDaysSql, [range.from, range.to, range.today]);
  return rows.map((row) => {
    const day = { day: row.day } as TRolledDay;
    for (const name of figureNames) day[name] = { count: row[`${name}Count`], cents: Number(row[`${name}Cents`]) };
    return day;
  });
}

// Per day, the same predicates as the live statements of lib/overview/overview.ts.
const computeDaysSql = `
WITH days AS (
  SELECT d::date AS day,
         (d::date::timestamp AT TIME ZONE '${timeZone}') AT TIME ZONE 'UTC' AS gte,
         ((d::date + 1)::timestamp AT TIME ZONE '${timeZone}') AT TIME ZONE 'UTC' AS lt
    FROM unnest($1::text[]) AS d)
INSERT INTO "OverviewDay" (day, ${figureNames.map((name) => `"${name}Count", "${name}Cents"`).join(", ")}, "computedAt")
SELECT k.day, pix.count, pix.cents, card.count, card.cents, card."cancelledCount", card."cancelledCents",
       card."viaLinkCount", card."viaLinkCents", refunds."returnedCount", refunds."returnedCents",
       refunds."createdCount", refunds."createdCents", refunds."processingCount", refunds."processingCents",
       pending.count, pending.cents, link.count, link.cents, via.count, via.cents, now() AT TIME ZONE 'UTC'
  FROM days k
 CROSS JOIN LATERAL (
   SELECT count(*)::int AS count, coalesce(sum(coalesce(c."paidAmountCents", c."amountCents")), 0) AS cents
     FROM "PixCharge" c
    WHERE c."paidAt" >= k.gte AND c."paidAt" < k.lt AND c.status = ANY($2::text[])) pix
 CROSS JOIN LATERAL (
   SELECT count(*)::int AS count, coalesce(sum(p."amountCents"), 0) AS cents,
          (count(*) FILTER (WHERE p.status = $4::text))::int AS "cancelledCount",
          coalesce(sum(p."cancelledCents"), 0) AS "cancelledCents",
          (count(*) FILTER (WHERE p."linkPaymentUuid" IS NOT NULL))::int AS "viaLinkCount",
          coalesce(sum(p."amountCents") FILTER (WHERE p."linkPaymentUuid" IS NOT NULL), 0) AS "viaLinkCents"
     FROM "CardPayment" p
    WHERE p."occurredAt" >= k.gte AND p."occurredAt" < k.lt
      AND ((p.status = $3::text AND p."isApproved") OR p.status = $4::text)) card
 CROSS JOIN LATERAL (
   SELECT (count(*) FILTER (WHERE r."statusCode" = $5::int))::int AS "returnedCount",
          coalesce(sum(r."amountCents") FILTER (WHERE r."statusCode" = $5::int), 0) AS "returnedCents",
          (count(*) FILTER (WHERE r."statusCode" = $6::int))::int AS "createdCount",
          coalesce(sum(r."amountCents") FILTER (WHERE r."statusCode" = $6::int), 0) AS "createdCents",
          (count(*) FILTER (WHERE r."statusCode" = $7::int))::int AS "processingCount",
          coalesce(sum(r."amountCents") FILTER (WHERE r."statusCode" = $7::int), 0) AS "processingCents"
     FROM "PixRefund" r
    WHERE r."creationDate" >= k.gte AND r."creationDate" < k.lt AND r."statusCode" IN ($5::int, $6::int, $7::int)) refunds
 CROSS JOIN LATERAL (
   SELECT count(*)::int AS count, coalesce(sum(c."amountCents"), 0) AS cents
     FROM "PixCharge" c
    WHERE c.status = 'ACTIVE' AND c."creationDate" >= k.gte AND c."creationDate" < k.lt) pending
 CROSS JOIN LATERAL (
   SELECT count(*)::int AS count, coalesce(sum(l."amountCents"), 0) AS cents
     FROM "PaymentLink" l
    WHERE l."statusCode" = $8::int AND l."paidAt" >= k.gte AND l."paidAt" < k.lt
      AND NOT EXISTS (SELECT 1 FROM "PixCharge" c WHERE c.txid = l."pixChargeTxid" AND c."paidAt" IS NOT NULL)
      AND NOT EXISTS (SELECT 1 FROM "CardPayment" p WHERE p."linkPaymentUuid" = l."linkPaymentUuid"
                         AND ((p.status = $3::text AND p."isApproved") OR p.status = $4::text))) link
 CROSS JOIN LATERAL (
   SELECT count(*)::int AS count, coalesce(sum(coalesce(c."paidAmountCents", c."amountCents")), 0) AS cents
     FROM "PixCharge" c JOIN "PaymentLink" l ON l."pixChargeTxid" = c.txid
    WHERE c."paidAt" >= k.gte AND c."paidAt" < k.lt AND c.status = ANY($2::text[])) via
ON CONFLICT (day) DO UPDATE SET
  ${figureNames.map((name) => `"${name}Count" = EXCLUDED."${name}Count", "${name}Cents" = EXCLUDED."${name}Cents"`).join(",\n  ")},
  "computedAt" = EXCLUDED."computedAt"
RETURNING to_char(day, 'YYYY-MM-DD') AS day`;

// Serializes refreshes: two at once could let an older computation overwrite a newer one.
const refreshLockSql = `SELECT 1 AS locked FROM (SELECT ${transactionLockSql.byNumber(7320150917n)}) AS l`;

// Consumed by the recomputing transaction, whose snapshot is taken after this delete; an uncommitted write keeps its
// change row, and its day stays live until the next refresh.
const consumeChangesSql = `
DELETE FROM "OverviewDayChange" WHERE day < $1::date RETURNING to_char(day, 'YYYY-MM-DD') AS day`;

// Closed days with any data (from the oldest mirrored row) that have no rollup yet, newest first.
const missingDaysSql = `
WITH first AS (
  SELECT least((SELECT min("paidAt") FROM "PixCharge"), (SELECT min("creationDate") FROM "PixCharge"),
               (SELECT min("occurredAt") FROM "CardPayment"), (SELECT min("creationDate") FROM "PixRefund"),
               (SELECT min("paidAt") FROM "PaymentLink")) AS at)
SELECT to_char(d, 'YYYY-MM-DD') AS day
  FROM first, generate_series(((first.at AT TIME ZONE 'UTC') AT TIME ZONE '${timeZone}')::date, $1::date - 1, interval '1 day') AS d
 WHERE first.at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "OverviewDay" o WHERE o.day = d::date)
 ORDER BY d DESC
 LIMIT $2::int`;

const closedForMs = 60 * 60 * 1000;

// Days computed per transaction, so a first run over years of history commits as it goes.
const daysPerBatch = 62;

// PGlite's Prisma interactive transactions end after 5 s by default; a first run's batch may need longer.
function inRefreshTransaction<T>(work: (run: TSqlRunner) => Promise<T>): Promise<T> {
  if (getPostgresPool()) return inSqlTransaction(work);
  return inTransaction((tx) => work(prismaSqlRunner(tx)), { timeout: 120_000 });
}

export async function refreshOverviewDays(
  options: { now?: Date; signal?: AbortSignal; inTransaction?: typeof inSqlTransaction } = {},
): Promise<{ days: number; batches: number }> {
  // Days closed for over an hour: today's writes name no day (the trigger skips them), so every write on it has committed.
  const now = options.now ?? new Date();
  const today = toSaoPauloDay(new Date(now.getTime() - closedForMs));
  const transaction = options.inTransaction ?? inRefreshTransaction;
  let days = 0;
  let batches = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const { written, missing } = await transaction(async (run) => {
      await run("SELECT set_config('jit', 'off', true) AS jit", []);
      await run(refreshLockSql, []);
      const changed = await run<{ day: string }>(consumeChangesSql, [today]);
      const missing = await run<{ day: string }>(missingDaysSql, [today, daysPerBatch]);
      const toCompute = [...new Set([...changed, ...missing].map((row) => row.day))];
      if (toCompute.length === 0) return { written: 0, missing: 0 };
      const { APPROVED, CANCELLED } = cardPaymentStatuses;
      const { RETURNED, CREATED, PROCESSING } = pixRefundStatusCodes;
      const rows = await run<{ day: string }>(computeDaysSql, [
        toCompute,
        [...pixReceivedStatuses],
        APPROVED,
        CANCELLED,
        RETURNED,
        CREATED,
        PROCESSING,
        paymentLinkStatusCodes.PAID,
      ]);
      return { written: rows.length, missing: missing.length };
    });
    days += written;
    if (written > 0) batches += 1;
    if (missing < daysPerBatch) return { days, batches };
  }
}
