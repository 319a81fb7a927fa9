import "server-only";
import { inSqlTransaction, type TSqlRunner } from "@/lib/db/sql";
import { timeZone } from "@/lib/i18n/config";
import { paymentLinkStatusCodes } from "@/lib/links/types";
import { periodBounds } from "@/lib/list/period";
import { cardPaymentStatuses } from "@/lib/payments/types";
import { pixReceivedStatuses, pixRefundStatusCodes } from "@/lib/pix/types";
import type { TOverviewPeriod } from "./schemas";

// The home overview, computed by two aggregate statements over the mirror (never by loading rows).
// What "received" means, and which list each figure links to: docs/overview.md.

export type TOverviewAmount = { count: number; cents: number };
export type TOverviewMethod = "pix" | "card" | "link";

export type TOverviewBucketRow = { bucket: string } & Record<TOverviewMethod, number>;

export type TOverview = {
  received: { count: number; grossCents: number; returnedCents: number; netCents: number; averageTicketCents: number };
  pix: TOverviewAmount & { refunded: TOverviewAmount; netCents: number; viaLink: TOverviewAmount };
  card: TOverviewAmount & {
    approvedCount: number;
    cancelled: TOverviewAmount;
    netCents: number;
    viaLink: TOverviewAmount;
  };
  // Links paid with no mirrored Pix charge or card payment behind them (paid outside this app's pay page).
  link: TOverviewAmount;
  pendingPix: TOverviewAmount;
  openLinks: TOverviewAmount;
  refundsCreated: TOverviewAmount;
  refundsProcessing: TOverviewAmount;
  linkConversion: { created: number; paid: number };
  // Gross received per bucket ("YYYY-MM-DD" or "YYYY-MM-DDTHH"), São Paulo time, every bucket of the period.
  series: TOverviewBucketRow[];
};

// Stored timestamps are UTC wall times (timestamp without zone). The buckets are São Paulo days or hours turned into
// UTC ranges once, so each bucket is one index range scan and no row's time is converted.
const bucketsCte = `
starts AS (SELECT $3::timestamp + i * $5::interval AS s FROM generate_series(0, $4::int - 1) AS i),
buckets AS (
  SELECT to_char(s, $6::text) AS bucket,
         (s AT TIME ZONE '${timeZone}') AT TIME ZONE 'UTC' AS gte,
         ((s + $5::interval) AT TIME ZONE '${timeZone}') AT TIME ZONE 'UTC' AS lt
    FROM starts)`;

const cardReceived = `((p.status = $8::text AND p."isApproved") OR p.status = $9::text)`;

// One row per method and bucket (and one for the Pix paid through links). A link paid by Pix is counted through its
// charge, one paid by card through its card payment; the link itself only when neither is mirrored, so nothing is
// counted twice.
const receivedSql = `
WITH ${bucketsCte}
SELECT 'pix' AS method, k.bucket, count(*)::int AS count,
       sum(coalesce(c."paidAmountCents", c."amountCents"))::text AS "grossCents",
       0 AS "cancelledCount", '0' AS "cancelledCents", 0 AS "viaLinkCount", '0' AS "viaLinkCents"
  FROM buckets k JOIN "PixCharge" c ON c."paidAt" >= k.gte AND c."paidAt" < k.lt
 WHERE c.status = ANY($7::text[])
 GROUP BY k.bucket
UNION ALL
SELECT 'card', k.bucket, count(*)::int, sum(p."amountCents")::text,
       (count(*) FILTER (WHERE p.status = $9::text))::int, sum(p."cancelledCents")::text,
       (count(*) FILTER (WHERE p."linkPaymentUuid" IS NOT NULL))::int,
       coalesce(sum(p."amountCents") FILTER (WHERE p."linkPaymentUuid" IS NOT NULL), 0)::text
  FROM buckets k JOIN "CardPayment" p ON p."occurredAt" >= k.gte AND p."occurredAt" < k.lt
 WHERE ${cardReceived}
 GROUP BY k.bucket
UNION ALL
SELECT 'link', k.bucket, count(*)::int, sum(l."amountCents")::text, 0, '0', 0, '0'
  FROM (
    -- Filtered to the period first: few rows, each checked by index against its charge and card payments.
    SELECT l."paidAt", l."amountCents" FROM "PaymentLink" l
     WHERE l."statusCode" = $10::int
       AND l."paidAt" >= ($1::timestamptz AT TIME ZONE 'UTC') AND l."paidAt" < ($2::timestamptz AT TIME ZONE 'UTC')
       AND NOT EXISTS (SELECT 1 FROM "PixCharge" c WHERE c.txid = l."pixChargeTxid" AND c."paidAt" IS NOT NULL)
       AND NOT EXISTS (SELECT 1 FROM "CardPayment" p WHERE p."linkPaymentUuid" = l."linkPaymentUuid" AND ${cardReceived})
  ) l JOIN buckets k ON l."paidAt" >= k.gte AND l."paidAt" < k.lt
 GROUP BY k.bucket
UNION ALL
SELECT 'pixViaLink', NULL, 0, '0', 0, '0', count(*)::int, coalesce(sum(coalesce(c."paidAmountCents", c."amountCents")), 0)::text
  FROM "PaymentLink" l JOIN "PixCharge" c ON c.txid = l."pixChargeTxid"
 WHERE c."paidAt" >= ($1::timestamptz AT TIME ZONE 'UTC') AND c."paidAt" < ($2::timestamptz AT TIME ZONE 'UTC')
   AND c.status = ANY($7::text[])`;

type TReceivedRow = {
  method: TOverviewMethod | "pixViaLink";
  bucket: string | null;
  count: number;
  grossCents: string;
  cancelledCount: number;
  cancelledCents: string;
  viaLinkCount: number;
  viaLinkCents: string;
};

// Each figure counts the rows its list shows: refunds and links by creation date, pending charges by status.
const gte = (column: string) => `${column} >= ($1::timestamptz AT TIME ZONE 'UTC')`;
const lt = (column: string) => `${column} < ($2::timestamptz AT TIME ZONE 'UTC')`;
const inPeriod = (column: string) => `${gte(column)} AND ${lt(column)}`;
const countAndSum = (column: string) => `json_build_array(count(*), coalesce(sum(${column}), 0))`;

const figuresSql = `
SELECT
  (SELECT ${countAndSum('r."amountCents"')} FROM "PixRefund" r
    WHERE r."statusCode" = $4::int AND ${inPeriod('r."creationDate"')}) AS "refundsReturned",
  (SELECT ${countAndSum('r."amountCents"')} FROM "PixRefund" r
    WHERE r."statusCode" = $5::int AND ${inPeriod('r."creationDate"')}) AS "refundsCreated",
  (SELECT ${countAndSum('r."amountCents"')} FROM "PixRefund" r
    WHERE r."statusCode" = $6::int AND ${inPeriod('r."creationDate"')}) AS "refundsProcessing",
  (SELECT ${countAndSum('c."amountCents"')} FROM "PixCharge" c
    WHERE c.status = 'ACTIVE' AND ${inPeriod('c."creationDate"')}) AS "pendingPix",
  (SELECT ${countAndSum('l."amountCents"')} FROM "PaymentLink" l
    WHERE l."statusCode" = $7::int AND l."expiresAt" > ($3::timestamptz AT TIME ZONE 'UTC')
      AND ${inPeriod('l."creationDate"')}) AS "openLinks",
  (SELECT json_build_array(count(*), count(*) FILTER (WHERE l."statusCode" = $8::int)) FROM "PaymentLink" l
    WHERE ${inPeriod('l."creationDate"')}) AS "linkConversion"`;

type TPair = [number | string, number | string];
type TFiguresRow = Record<
  "refundsReturned" | "refundsCreated" | "refundsProcessing" | "pendingPix" | "openLinks" | "linkConversion",
  TPair
>;

const amountOf = ([count, cents]: TPair): TOverviewAmount => ({ count: Number(count), cents: Number(cents) });

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Every bucket of the period, in order: the days, or the 24 hours of a single day. */
export function overviewBuckets(period: TOverviewPeriod): string[] {
  if (period.bucket === "hour")
    return Array.from({ length: 24 }, (_, hour) => `${period.from}T${String(hour).padStart(2, "0")}`);
  return Array.from({ length: period.days }, (_, index) => addDays(period.from, index));
}

/** The overview's figures for a period of São Paulo days, from the mirror. */
export async function getOverview(
  period: TOverviewPeriod,
  options: { now?: Date; run?: TSqlRunner } = {},
): Promise<TOverview> {
  const now = options.now ?? new Date();
  if (!options.run)
    return inSqlTransaction(async (run) => {
      // These aggregates take a few milliseconds; compiling them with JIT would take a second.
      await run("SELECT set_config('jit', 'off', true) AS jit", []);
      return getOverview(period, { now, run });
    });
  const run = options.run;
  const { gte, lt } = periodBounds(period);
  const bounds = [gte!.toISOString(), lt!.toISOString()];
  const { APPROVED, CANCELLED } = cardPaymentStatuses;
  const { CREATED, PROCESSING, RETURNED } = pixRefundStatusCodes;
  const format = period.bucket === "hour" ? 'YYYY-MM-DD"T"HH24' : "YYYY-MM-DD";
  // One after the other: inside a transaction they share one connection.
  const received = await run<TReceivedRow>(receivedSql, [
    ...bounds,
    `${period.from} 00:00:00`,
    period.bucket === "hour" ? 24 : period.days,
    period.bucket === "hour" ? "1 hour" : "1 day",
    format,
    [...pixReceivedStatuses],
    APPROVED,
    CANCELLED,
    paymentLinkStatusCodes.PAID,
  ]);
  const [figures] = await run<TFiguresRow>(figuresSql, [
    ...bounds,
    now.toISOString(),
    RETURNED,
    CREATED,
    PROCESSING,
    paymentLinkStatusCodes.CREATED,
    paymentLinkStatusCodes.PAID,
  ]);

  const series = new Map(
    overviewBuckets(period).map((bucket) => [bucket, { bucket, pix: 0, card: 0, link: 0 } as TOverviewBucketRow]),
  );
  const totals = {
    pix: { count: 0, cents: 0, viaLink: { count: 0, cents: 0 } },
    card: { count: 0, cents: 0, cancelled: { count: 0, cents: 0 }, viaLink: { count: 0, cents: 0 } },
    link: { count: 0, cents: 0 },
  };
  for (const row of received) {
    if (row.method === "pixViaLink") {
      totals.pix.viaLink = { count: row.viaLinkCount, cents: Number(row.viaLinkCents) };
      continue;
    }
    const cents = Number(row.grossCents);
    const point = row.bucket === null ? undefined : series.get(row.bucket);
    if (point) point[row.method] += cents;
    const total = totals[row.method];
    total.count += row.count;
    total.cents += cents;
    if (row.method === "card") {
      totals.card.viaLink.count += row.viaLinkCount;
      totals.card.viaLink.cents += Number(row.viaLinkCents);
      totals.card.cancelled.count += row.cancelledCount;
      totals.card.cancelled.cents += Number(row.cancelledCents);
    }
  }
  if (!figures) throw new Error("The overview's figures query returned no row");
  const refunded = amountOf(figures.refundsReturned);
  const [created, paid] = figures.linkConversion.map(Number) as [number, number];
  const count = totals.pix.count + totals.card.count + totals.link.count;
  const grossCents = totals.pix.cents + totals.card.cents + totals.link.cents;
  const returnedCents = refunded.cents + totals.card.cancelled.cents;
  return {
    received: {
      count,
      grossCents,
      returnedCents,
      netCents: grossCents - returnedCents,
      // Gross over count: what a typical sale was worth when it was made.
      averageTicketCents: count ? Math.round(grossCents / count) : 0,
    },
    pix: { ...totals.pix, refunded, netCents: totals.pix.cents - refunded.cents },
    card: {
      ...totals.card,
      approvedCount: totals.card.count - totals.card.cancelled.count,
      netCents: totals.card.cents - totals.card.cancelled.cents,
    },
    link: totals.link,
    pendingPix: amountOf(figures.pendingPix),
    openLinks: amountOf(figures.openLinks),
    refundsCreated: amountOf(figures.refundsCreated),
    refundsProcessing: amountOf(figures.refundsProcessing),
    linkConversion: { created, paid },
    series: [...series.values()],
  };
}
