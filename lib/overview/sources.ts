import "server-only";
import { periodBounds } from "@/lib/list/period";

// What each resource adds to the overview (its registry entry's `overview`). One source is one scan of one table,
// adding up figures per bucket of time; today's hours, open days and the rollup's closed days all run the same SQL,
// so a live figure and a rolled one cannot count differently (docs/overview.md).

export type TOverviewMethod = "pix" | "card" | "link";

export type TOverviewSource = {
  // The subquery's alias, unique in the registry.
  key: string;
  figures: readonly string[];
  // The table and its alias (never `k`, the bucket), the time that places a row in a bucket, which rows count.
  from: string;
  time: string;
  where: string;
  // Aggregates over one bucket's rows: for each figure, `"<figure>Count"` and `"<figure>Cents"`. Constants go in
  // through sqlLiteral: the text names a prepared statement.
  select: string;
  // Money received by a payment method: it adds to what the overview says was received and to the chart.
  received?: { figure: string; method: TOverviewMethod };
  // Money given back (refunded, cancelled): subtracted from what was received.
  returned?: string;
};

export function defineOverviewSource<const T extends TOverviewSource>(source: T): T {
  return source;
}

export function sqlLiteral(value: string | number): string {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new RangeError(`Not an integer: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

export function sqlTextArray(values: readonly string[]): string {
  return `ARRAY[${values.map(sqlLiteral).join(", ")}]::text[]`;
}

export const figureNamesOf = (sources: readonly TOverviewSource[]): string[] =>
  sources.flatMap((source) => source.figures);

// Joined to a `buckets k` of (s, gte, lt) UTC ranges: a join and GROUP BY rather than one subquery per bucket, so
// the planner may hash a lookup once for a year of buckets instead of probing it per row. The buckets' overall range
// comes in as two timestamp parameters ($n, $n+1), so the plan starts from the few rows in it (today's, usually).
export const bucketJoinsSql = (sources: readonly TOverviewSource[], rangeParam: number): string => {
  const from = `($${rangeParam}::timestamptz AT TIME ZONE 'UTC')`;
  const to = `($${rangeParam + 1}::timestamptz AT TIME ZONE 'UTC')`;
  return sources
    .map(
      (source) => `LEFT JOIN (
  SELECT k.s, ${source.select}
    FROM buckets k JOIN ${source.from} ON ${source.time} >= k.gte AND ${source.time} < k.lt
   WHERE ${source.time} >= ${from} AND ${source.time} < ${to} AND ${source.where}
   GROUP BY k.s) "${source.key}" ON "${source.key}".s = k.s`,
    )
    .join("\n");
};

// The UTC bounds of São Paulo days `from` to `to`, as the range parameters of bucketJoinsSql.
export function rangeOfDays(days: readonly string[]): [string, string] {
  const sorted = [...days].sort();
  const { gte, lt } = periodBounds({ from: sorted[0], to: sorted.at(-1) });
  if (!gte || !lt) throw new RangeError("No days to bound");
  return [gte.toISOString(), lt.toISOString()];
}

const countOf = (source: TOverviewSource, name: string) => `coalesce("${source.key}"."${name}Count", 0)`;
const centsOf = (source: TOverviewSource, name: string) => `coalesce("${source.key}"."${name}Cents", 0)`;

export const figureColumnsSql = (sources: readonly TOverviewSource[]): string =>
  sources
    .flatMap((source) =>
      source.figures.map(
        (name) => `${countOf(source, name)}::int AS "${name}Count", ${centsOf(source, name)}::text AS "${name}Cents"`,
      ),
    )
    .join(",\n       ");

// One jsonb object per source, joined with `||`: a function takes at most 100 arguments.
export const figuresJsonSql = (sources: readonly TOverviewSource[]): string =>
  sources
    .map(
      (source) =>
        `jsonb_build_object(${source.figures
          .map((name) => `'${name}', jsonb_build_array(${countOf(source, name)}, ${centsOf(source, name)})`)
          .join(", ")})`,
    )
    .join(" || ");

// When the oldest counted row happened (NULL when none): where the rollup's history starts.
export const earliestSql = (sources: readonly TOverviewSource[]): string =>
  `least(${sources.map((source) => `(SELECT min(${source.time}) FROM ${source.from})`).join(", ")})`;
