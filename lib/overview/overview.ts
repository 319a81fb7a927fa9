import "server-only";
import { inReadSqlTransaction } from "@/lib/db/read-replica";
import type { TSqlRunner } from "@/lib/db/sql";
import { timeZone } from "@/lib/i18n/config";
import { paymentLinkStatusCodes } from "@/lib/links/types";
import { periodBounds, toSaoPauloDay } from "@/lib/list/period";
import { overviewSources, readRolledDays, type TOverviewAmount, type TOverviewFigures } from "./rollup";
import type { TOverviewPeriod } from "./schemas";
import {
  bucketJoinsSql,
  figureColumnsSql,
  figureNamesOf,
  rangeOfDays,
  type TOverviewMethod,
  type TOverviewSource,
} from "./sources";

// Two aggregate statements over the mirror (never loading rows) plus OverviewDay's closed days; see docs/overview.md.

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
const liveBucketsSql = (sources: readonly TOverviewSource[]) => `
WITH starts AS (SELECT s::timestamp AS s FROM unnest($1::text[]) AS s),
buckets AS (
  SELECT s, (s AT TIME ZONE '${timeZone}') AT TIME ZONE 'UTC' AS gte,
         ((s + $2::interval) AT TIME ZONE '${timeZone}') AT TIME ZONE 'UTC' AS lt
    FROM starts)
SELECT to_char(k.s, $3::text) AS bucket,
       ${figureColumnsSql(sources)}
  FROM buckets k
${bucketJoinsSql(sources, 4)}`;

const statementsBySources = new WeakMap<readonly TOverviewSource[], string>();

function liveBucketsStatement(sources: readonly TOverviewSource[]): string {
  let text = statementsBySources.get(sources);
  if (!text) {
    text = liveBucketsSql(sources);
    statementsBySources.set(sources, text);
  }
  return text;
}

type TLiveBucketRow = { bucket: string } & Record<string, number | string>;

// The payment links' own figures, over the whole period rather than per bucket: not rolled up.
const inPeriod = (column: string) =>
  `${column} >= ($1::timestamptz AT TIME ZONE 'UTC') AND ${column} < ($2::timestamptz AT TIME ZONE 'UTC')`;

const linkPeriodSql = `
SELECT
  (SELECT json_build_array(count(*), coalesce(sum(l."amountCents"), 0)) FROM "PaymentLink" l
    WHERE l."statusCode" = $4::int AND l."expiresAt" > ($3::timestamptz AT TIME ZONE 'UTC')
      AND ${inPeriod('l."creationDate"')}) AS "openLinks",
  (SELECT json_build_array(count(*), count(*) FILTER (WHERE l."statusCode" = $5::int)) FROM "PaymentLink" l
    WHERE ${inPeriod('l."creationDate"')}) AS "linkConversion"`;

type TPair = [number | string, number | string];
type TLinkPeriodRow = Record<"openLinks" | "linkConversion", TPair>;

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

export type TAddedUpFigures = { figures: TOverviewFigures; series: TOverviewBucketRow[] };

// Every source's figures over the period, and the money received per bucket by method: closed days from the rollup,
// everything else live, each day counted once by one or the other.
export async function addUpFigures(
  period: TOverviewPeriod,
  run: TSqlRunner,
  options: { now: Date; useRollup?: boolean; sources?: readonly TOverviewSource[] },
): Promise<TAddedUpFigures> {
  const sources = options.sources ?? overviewSources;
  const isHourly = period.bucket === "hour";
  const rolled =
    isHourly || options.useRollup === false
      ? []
      : await readRolledDays(run, { from: period.from, to: period.to, today: toSaoPauloDay(options.now) }, sources);
  const rolledDays = new Set(rolled.map((day) => day.day));
  const liveStarts = overviewBuckets(period)
    .filter((bucket) => !rolledDays.has(bucket))
    .map((bucket) => (isHourly ? `${bucket.replace("T", " ")}:00:00` : `${bucket} 00:00:00`));
  const live = liveStarts.length
    ? await run<TLiveBucketRow>(liveBucketsStatement(sources), [
        liveStarts,
        isHourly ? "1 hour" : "1 day",
        isHourly ? 'YYYY-MM-DD"T"HH24' : "YYYY-MM-DD",
        ...rangeOfDays(liveStarts.map((start) => start.slice(0, 10))),
      ])
    : [];

  const figures: TOverviewFigures = new Map(figureNamesOf(sources).map((name) => [name, { count: 0, cents: 0 }]));
  const series = new Map(
    overviewBuckets(period).map((bucket) => [bucket, { bucket, pix: 0, card: 0, link: 0 } as TOverviewBucketRow]),
  );
  const addBucket = (bucket: string, amountOf: (name: string) => TOverviewAmount) => {
    for (const [name, total] of figures) {
      const amount = amountOf(name);
      total.count += amount.count;
      total.cents += amount.cents;
    }
    const point = series.get(bucket);
    if (point)
      for (const source of sources)
        if (source.received) point[source.received.method] += amountOf(source.received.figure).cents;
  };
  for (const row of live)
    addBucket(row.bucket, (name) => ({ count: Number(row[`${name}Count`]), cents: Number(row[`${name}Cents`]) }));
  for (const day of rolled) addBucket(day.day, (name) => day.figures.get(name) ?? { count: 0, cents: 0 });
  return { figures, series: [...series.values()] };
}

// The figures this module reads by name: registry.test.ts checks that the registry's sources provide each.
export const overviewFigureNames = [
  "pix",
  "pixViaLink",
  "card",
  "cardCancelled",
  "cardViaLink",
  "link",
  "pendingPix",
  "refundsReturned",
  "refundsCreated",
  "refundsProcessing",
] as const;

export async function getOverview(
  period: TOverviewPeriod,
  options: { now?: Date; run?: TSqlRunner; useRollup?: boolean } = {},
): Promise<TOverview> {
  const now = options.now ?? new Date();
  if (!options.run)
    return inReadSqlTransaction(async (run) => {
      // Custom plans, no JIT: a generic plan cannot see how few live buckets the array holds and would scan whole tables.
      await run(
        "SELECT set_config('jit', 'off', true) AS jit, set_config('plan_cache_mode', 'force_custom_plan', true) AS plans",
        [],
      );
      return getOverview(period, { ...options, now, run });
    });
  const run = options.run;
  const { gte, lt } = periodBounds(period);
  // One after the other: inside a transaction they share one connection.
  const { figures, series } = await addUpFigures(period, run, { now, useRollup: options.useRollup });
  const [links] = await run<TLinkPeriodRow>(linkPeriodSql, [
    gte!.toISOString(),
    lt!.toISOString(),
    now.toISOString(),
    paymentLinkStatusCodes.CREATED,
    paymentLinkStatusCodes.PAID,
  ]);
  if (!links) throw new Error("The overview's payment-link query returned no row");

  const figure = (name: string): TOverviewAmount => {
    const amount = figures.get(name);
    if (!amount) throw new Error(`No overview source adds up "${name}"`);
    return amount;
  };
  const received = overviewSources.flatMap((source) => (source.received ? [figure(source.received.figure)] : []));
  const count = received.reduce((sum, amount) => sum + amount.count, 0);
  const grossCents = received.reduce((sum, amount) => sum + amount.cents, 0);
  const returnedCents = overviewSources.reduce(
    (sum, source) => sum + (source.returned ? figure(source.returned).cents : 0),
    0,
  );
  const pix = figure("pix");
  const card = figure("card");
  const refunded = figure("refundsReturned");
  const cancelled = figure("cardCancelled");
  const [created, paid] = links.linkConversion.map(Number) as [number, number];
  return {
    received: {
      count,
      grossCents,
      returnedCents,
      netCents: grossCents - returnedCents,
      averageTicketCents: count ? Math.round(grossCents / count) : 0,
    },
    pix: { ...pix, viaLink: figure("pixViaLink"), refunded, netCents: pix.cents - refunded.cents },
    card: {
      ...card,
      cancelled,
      viaLink: figure("cardViaLink"),
      approvedCount: card.count - cancelled.count,
      netCents: card.cents - cancelled.cents,
    },
    link: figure("link"),
    pendingPix: figure("pendingPix"),
    openLinks: amountOf(links.openLinks),
    refundsCreated: figure("refundsCreated"),
    refundsProcessing: figure("refundsProcessing"),
    linkConversion: { created, paid },
    series,
  };
}
