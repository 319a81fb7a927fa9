import "server-only";
import { cardPaymentStatuses } from "@/lib/card-payments/types";
import { inSqlTransaction, type TSqlRunner } from "@/lib/db/sql";
import { timeZone } from "@/lib/i18n/config";
import { paymentLinkStatusCodes } from "@/lib/links/types";
import { periodBounds, toSaoPauloDay } from "@/lib/list/period";
import { pixReceivedStatuses, pixRefundStatusCodes } from "@/lib/pix/types";
import { readRolledDays } from "./rollup";
import type { TOverviewPeriod } from "./schemas";

// Two aggregate statements over the mirror (never loading rows) plus OverviewDay's closed days; see docs/overview.md.

type TOverviewAmount = { count: number; cents: number };
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
  series: TOverviewBucketRow[];
};

// Buckets are São Paulo days or hours as UTC ranges computed once: one index range scan each, no row's time converted.
const bucketsCte = (starts: number, step: number) => `
starts AS (SELECT s::timestamp AS s FROM unnest($${starts}::text[]) AS s),
buckets AS (
  SELECT s, (s AT TIME ZONE '${timeZone}') AT TIME ZONE 'UTC' AS gte,
         ((s + $${step}::interval) AT TIME ZONE '${timeZone}') AT TIME ZONE 'UTC' AS lt
    FROM starts)`;

const viaLink = `EXISTS (SELECT 1 FROM "PaymentLink" l WHERE l."pixChargeTxid" = c.txid)`;

const cardReceived = `((p.status = $5::text AND p."isApproved") OR p.status = $6::text)`;

// A link paid by Pix is counted through its charge, by card through its card payment, so nothing is counted twice.
const receivedSql = `
WITH ${bucketsCte(1, 2)}
SELECT 'pix' AS method, to_char(k.s, $3::text) AS bucket, count(*)::int AS count,
       sum(coalesce(c."paidAmountCents", c."amountCents"))::text AS "grossCents",
       0 AS "cancelledCount", '0' AS "cancelledCents",
       -- Paid through a link: one index probe per charge of the live buckets (few), never a walk over every link.
       (count(*) FILTER (WHERE ${viaLink}))::int AS "viaLinkCount",
       coalesce(sum(coalesce(c."paidAmountCents", c."amountCents")) FILTER (WHERE ${viaLink}), 0)::text AS "viaLinkCents"
  FROM buckets k JOIN "PixCharge" c ON c."paidAt" >= k.gte AND c."paidAt" < k.lt
 WHERE c.status = ANY($4::text[])
 GROUP BY k.s
UNION ALL
SELECT 'card', to_char(k.s, $3::text), count(*)::int, sum(p."amountCents")::text,
       (count(*) FILTER (WHERE p.status = $6::text))::int, sum(p."cancelledCents")::text,
       (count(*) FILTER (WHERE p."linkPaymentUuid" IS NOT NULL))::int,
       coalesce(sum(p."amountCents") FILTER (WHERE p."linkPaymentUuid" IS NOT NULL), 0)::text
  FROM buckets k JOIN "CardPayment" p ON p."occurredAt" >= k.gte AND p."occurredAt" < k.lt
 WHERE ${cardReceived}
 GROUP BY k.s
UNION ALL
SELECT 'link', to_char(k.s, $3::text), count(*)::int, sum(l."amountCents")::text, 0, '0', 0, '0'
  FROM buckets k JOIN "PaymentLink" l ON l."paidAt" >= k.gte AND l."paidAt" < k.lt
 WHERE l."statusCode" = $7::int
   -- The live buckets' overall range, so the plan starts from the few links paid in it.
   AND l."paidAt" >= ($8::timestamptz AT TIME ZONE 'UTC') AND l."paidAt" < ($9::timestamptz AT TIME ZONE 'UTC')
   AND NOT EXISTS (SELECT 1 FROM "PixCharge" c WHERE c.txid = l."pixChargeTxid" AND c."paidAt" IS NOT NULL)
   AND NOT EXISTS (SELECT 1 FROM "CardPayment" p WHERE p."linkPaymentUuid" = l."linkPaymentUuid" AND ${cardReceived})
 GROUP BY k.s`;

type TReceivedRow = {
  method: TOverviewMethod;
  bucket: string;
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
const inBuckets = (table: string, column: string) =>
  `FROM buckets k JOIN ${table} ON ${column} >= k.gte AND ${column} < k.lt`;
const countAndSum = (column: string) => `json_build_array(count(*), coalesce(sum(${column}), 0))`;

const figuresSql = `
WITH ${bucketsCte(3, 4)}
SELECT
  (SELECT ${countAndSum('r."amountCents"')} ${inBuckets('"PixRefund" r', 'r."creationDate"')}
    WHERE r."statusCode" = $6::int) AS "refundsReturned",
  (SELECT ${countAndSum('r."amountCents"')} ${inBuckets('"PixRefund" r', 'r."creationDate"')}
    WHERE r."statusCode" = $7::int) AS "refundsCreated",
  (SELECT ${countAndSum('r."amountCents"')} ${inBuckets('"PixRefund" r', 'r."creationDate"')}
    WHERE r."statusCode" = $8::int) AS "refundsProcessing",
  (SELECT ${countAndSum('c."amountCents"')} ${inBuckets('"PixCharge" c', 'c."creationDate"')}
    WHERE c.status = 'ACTIVE') AS "pendingPix",
  (SELECT ${countAndSum('l."amountCents"')} FROM "PaymentLink" l
    WHERE l."statusCode" = $9::int AND l."expiresAt" > ($5::timestamptz AT TIME ZONE 'UTC')
      AND ${inPeriod('l."creationDate"')}) AS "openLinks",
  (SELECT json_build_array(count(*), count(*) FILTER (WHERE l."statusCode" = $10::int)) FROM "PaymentLink" l
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

function overviewBuckets(period: TOverviewPeriod): string[] {
  if (period.bucket === "hour")
    return Array.from({ length: 24 }, (_, hour) => `${period.from}T${String(hour).padStart(2, "0")}`);
  return Array.from({ length: period.days }, (_, index) => addDays(period.from, index));
}

export async function getOverview(
  period: TOverviewPeriod,
  options: { now?: Date; run?: TSqlRunner; useRollup?: boolean } = {},
): Promise<TOverview> {
  const now = options.now ?? new Date();
  if (!options.run)
    return inSqlTransaction(async (run) => {
      // Custom plans, no JIT: a generic plan cannot see how few live buckets the array holds and would scan whole tables.
      await run(
        "SELECT set_config('jit', 'off', true) AS jit, set_config('plan_cache_mode', 'force_custom_plan', true) AS plans",
        [],
      );
      return getOverview(period, { ...options, now, run });
    });
  const run = options.run;
  const { gte, lt } = periodBounds(period);
  const bounds = [gte!.toISOString(), lt!.toISOString()];
  const { APPROVED, CANCELLED } = cardPaymentStatuses;
  const { CREATED, PROCESSING, RETURNED } = pixRefundStatusCodes;
  const isHourly = period.bucket === "hour";
  // First the closed days the rollup holds, then everything else live: each day is counted once, by one or the other.
  const rolled =
    isHourly || options.useRollup === false
      ? []
      : await readRolledDays(run, { from: period.from, to: period.to, today: toSaoPauloDay(now) });
  const rolledDays = new Set(rolled.map((day) => day.day));
  const liveStarts = overviewBuckets(period)
    .filter((bucket) => !rolledDays.has(bucket))
    .map((bucket) => (isHourly ? `${bucket.replace("T", " ")}:00:00` : `${bucket} 00:00:00`));
  const step = isHourly ? "1 hour" : "1 day";
  const liveDays = liveStarts.map((start) => start.slice(0, 10));
  const liveRange = liveDays.length ? periodBounds({ from: liveDays[0], to: liveDays.at(-1) }) : { gte, lt: gte };
  // One after the other: inside a transaction they share one connection.
  const received = await run<TReceivedRow>(receivedSql, [
    liveStarts,
    step,
    isHourly ? 'YYYY-MM-DD"T"HH24' : "YYYY-MM-DD",
    [...pixReceivedStatuses],
    APPROVED,
    CANCELLED,
    paymentLinkStatusCodes.PAID,
    liveRange.gte!.toISOString(),
    liveRange.lt!.toISOString(),
  ]);
  const [figures] = await run<TFiguresRow>(figuresSql, [
    ...bounds,
    liveStarts,
    step,
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
  const add = (target: TOverviewAmount, count: number, cents: number) => {
    target.count += count;
    target.cents += cents;
  };
  for (const row of received) {
    const cents = Number(row.grossCents);
    const point = series.get(row.bucket);
    if (point) point[row.method] += cents;
    add(totals[row.method], row.count, cents);
    if (row.method === "pix") add(totals.pix.viaLink, row.viaLinkCount, Number(row.viaLinkCents));
    if (row.method === "card") {
      add(totals.card.viaLink, row.viaLinkCount, Number(row.viaLinkCents));
      add(totals.card.cancelled, row.cancelledCount, Number(row.cancelledCents));
    }
  }
  if (!figures) throw new Error("The overview's figures query returned no row");
  const refunded = amountOf(figures.refundsReturned);
  const pendingPix = amountOf(figures.pendingPix);
  const refundsCreated = amountOf(figures.refundsCreated);
  const refundsProcessing = amountOf(figures.refundsProcessing);
  for (const day of rolled) {
    const point = series.get(day.day);
    if (point) {
      point.pix += day.pix.cents;
      point.card += day.card.cents;
      point.link += day.link.cents;
    }
    add(totals.pix, day.pix.count, day.pix.cents);
    add(totals.pix.viaLink, day.pixViaLink.count, day.pixViaLink.cents);
    add(totals.link, day.link.count, day.link.cents);
    add(totals.card, day.card.count, day.card.cents);
    add(totals.card.cancelled, day.cardCancelled.count, day.cardCancelled.cents);
    add(totals.card.viaLink, day.cardViaLink.count, day.cardViaLink.cents);
    add(refunded, day.refundsReturned.count, day.refundsReturned.cents);
    add(refundsCreated, day.refundsCreated.count, day.refundsCreated.cents);
    add(refundsProcessing, day.refundsProcessing.count, day.refundsProcessing.cents);
    add(pendingPix, day.pendingPix.count, day.pendingPix.cents);
  }
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
      averageTicketCents: count ? Math.round(grossCents / count) : 0,
    },
    pix: { ...totals.pix, refunded, netCents: totals.pix.cents - refunded.cents },
    card: {
      ...totals.card,
      approvedCount: totals.card.count - totals.card.cancelled.count,
      netCents: totals.card.cents - totals.card.cancelled.cents,
    },
    link: totals.link,
    pendingPix,
    openLinks: amountOf(figures.openLinks),
    refundsCreated,
    refundsProcessing,
    linkConversion: { created, paid },
    series: [...series.values()],
  };
}
