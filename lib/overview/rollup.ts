import "server-only";
import { getPostgresPool, inTransaction } from "@/lib/db/client";
import { transactionLockSql } from "@/lib/db/locks";
import { inSqlTransaction, prismaSqlRunner, type TSqlRunner } from "@/lib/db/sql";
import type { TChangeKind } from "@/lib/events/change";
import { timeZone } from "@/lib/i18n/config";
import { toSaoPauloDay } from "@/lib/list/period";
import { resourceRegistry, type TResourceEntry } from "@/lib/resources/server-registry";
import {
  bucketJoinsSql,
  earliestSql,
  figureNamesOf,
  figuresJsonSql,
  rangeOfDays,
  type TOverviewSource,
} from "./sources";

// Closed São Paulo days' figures in OverviewDay, so a year adds up 365 rows (docs/overview.md, "Speed"). Triggers log each
// day a write touches; a day is read from OverviewDay only while closed and unchanged, so correctness never needs the job.

export type TOverviewAmount = { count: number; cents: number };
export type TOverviewFigures = Map<string, TOverviewAmount>;
export type TRolledDay = { day: string; figures: TOverviewFigures };

export const overviewSourcesOf = (registry: readonly TResourceEntry[]): TOverviewSource[] =>
  registry.flatMap((entry) => entry.overview ?? []);

export const overviewSources = overviewSourcesOf(resourceRegistry);

// What the open overview listens to: a change to any resource that adds figures to it.
export const overviewChangeKinds = resourceRegistry.flatMap((entry) =>
  entry.overview && entry.descriptor.change ? [entry.descriptor.change as TChangeKind] : [],
);

// A day rolled up before a figure existed lacks it: it is read live, and computed again by the next refresh.
const rolledDaysSql = `
SELECT to_char(o.day, 'YYYY-MM-DD') AS day, o.figures::json AS figures
  FROM "OverviewDay" o
 WHERE o.day >= $1::date AND o.day <= $2::date AND o.day < $3::date AND o.figures ?& $4::text[]
   AND NOT EXISTS (SELECT 1 FROM "OverviewDayChange" x WHERE x.day = o.day)`;

export async function readRolledDays(
  run: TSqlRunner,
  range: { from: string; to: string; today: string },
  sources: readonly TOverviewSource[] = overviewSources,
): Promise<TRolledDay[]> {
  const names = figureNamesOf(sources);
  const rows = await run<{ day: string; figures: Record<string, [number | string, number | string]> }>(rolledDaysSql, [
    range.from,
    range.to,
    range.today,
    names,
  ]);
  return rows.map((row) => ({
    day: row.day,
    figures: new Map(
      names.map((name) => {
        const [count, cents] = row.figures[name] ?? [0, 0];
        return [name, { count: Number(count), cents: Number(cents) }];
      }),
    ),
  }));
}

const computeDaysSql = (sources: readonly TOverviewSource[]) => `
WITH buckets AS (
  SELECT d::date AS s,
         (d::date::timestamp AT TIME ZONE '${timeZone}') AT TIME ZONE 'UTC' AS gte,
         ((d::date + 1)::timestamp AT TIME ZONE '${timeZone}') AT TIME ZONE 'UTC' AS lt
    FROM unnest($1::text[]) AS d)
INSERT INTO "OverviewDay" (day, figures, "computedAt")
SELECT k.s, ${figuresJsonSql(sources)}, now() AT TIME ZONE 'UTC'
  FROM buckets k
${bucketJoinsSql(sources, 2)}
ON CONFLICT (day) DO UPDATE SET figures = EXCLUDED.figures, "computedAt" = EXCLUDED."computedAt"
RETURNING to_char(day, 'YYYY-MM-DD') AS day`;

// Serializes refreshes: two at once could let an older computation overwrite a newer one.
const refreshLockSql = `SELECT 1 AS locked FROM (SELECT ${transactionLockSql.byNumber(7320150917n)}) AS l`;

// Consumed by the recomputing transaction, whose snapshot is taken after this delete; an uncommitted write keeps its
// change row, and its day stays live until the next refresh.
const consumeChangesSql = `
DELETE FROM "OverviewDayChange" WHERE day < $1::date RETURNING to_char(day, 'YYYY-MM-DD') AS day`;

// Closed days with any data (from the oldest mirrored row) that have no rollup of every figure yet, newest first.
const missingDaysSql = (sources: readonly TOverviewSource[]) => `
WITH first AS (SELECT ${earliestSql(sources)} AS at)
SELECT to_char(d, 'YYYY-MM-DD') AS day
  FROM first, generate_series(((first.at AT TIME ZONE 'UTC') AT TIME ZONE '${timeZone}')::date, $1::date - 1, interval '1 day') AS d
 WHERE first.at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "OverviewDay" o WHERE o.day = d::date AND o.figures ?& $3::text[])
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
  options: {
    now?: Date;
    signal?: AbortSignal;
    inTransaction?: typeof inSqlTransaction;
    sources?: readonly TOverviewSource[];
  } = {},
): Promise<{ days: number; batches: number }> {
  // Days closed for over an hour: today's writes name no day (the trigger skips them), so every write on it has committed.
  const now = options.now ?? new Date();
  const today = toSaoPauloDay(new Date(now.getTime() - closedForMs));
  const transaction = options.inTransaction ?? inRefreshTransaction;
  const sources = options.sources ?? overviewSources;
  const names = figureNamesOf(sources);
  const compute = computeDaysSql(sources);
  const findMissing = missingDaysSql(sources);
  let days = 0;
  let batches = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const { written, missing } = await transaction(async (run) => {
      await run("SELECT set_config('jit', 'off', true) AS jit", []);
      await run(refreshLockSql, []);
      const changed = await run<{ day: string }>(consumeChangesSql, [today]);
      const missing = await run<{ day: string }>(findMissing, [today, daysPerBatch, names]);
      const toCompute = [...new Set([...changed, ...missing].map((row) => row.day))];
      if (toCompute.length === 0) return { written: 0, missing: 0 };
      const rows = await run<{ day: string }>(compute, [toCompute, ...rangeOfDays(toCompute)]);
      return { written: rows.length, missing: missing.length };
    });
    days += written;
    if (written > 0) batches += 1;
    if (missing < daysPerBatch) return { days, batches };
  }
}
