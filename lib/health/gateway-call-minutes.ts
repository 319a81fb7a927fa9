import "server-only";
import { beforeDbDisconnect, db } from "@/lib/db/client";
import { log } from "@/lib/log";

// Each instance adds up its calls in memory and adds them to the database's minute rows every few seconds: one
// upsert per operation and minute instead of a write per call, and every instance's calls end in the same row.

const gatewayLatencyBoundsMs = [5, 10, 25, 50, 75, 100, 150, 250, 400, 600, 1000, 1500, 2500, 5000, 10000];

export type TGatewayCallOutcome = "answered" | "clientError" | "failure";

type TMinuteTally = {
  operation: string;
  minute: Date;
  calls: number;
  failures: number;
  clientErrors: number;
  durationMsSum: number;
  latencyBuckets: number[];
};

const flushIntervalMs = 5_000;
const pending = new Map<string, TMinuteTally>();
let flushTimer: NodeJS.Timeout | undefined;
let flushing: Promise<void> | undefined;

function bucketIndex(durationMs: number): number {
  const index = gatewayLatencyBoundsMs.findIndex((bound) => durationMs <= bound);
  return index === -1 ? gatewayLatencyBoundsMs.length : index;
}

function startOfMinute(at: number): Date {
  return new Date(at - (at % 60_000));
}

/** One attempt of a gateway call; cheap and synchronous, the database sees it at the next flush. */
export function recordGatewayCall(
  operation: string,
  outcome: TGatewayCallOutcome,
  durationMs: number,
  at = Date.now(),
): void {
  const minute = startOfMinute(at);
  const key = `${operation}\u0000${minute.getTime()}`;
  let tally = pending.get(key);
  if (!tally) {
    tally = {
      operation,
      minute,
      calls: 0,
      failures: 0,
      clientErrors: 0,
      durationMsSum: 0,
      latencyBuckets: new Array(gatewayLatencyBoundsMs.length + 1).fill(0),
    };
    pending.set(key, tally);
  }
  tally.calls += 1;
  if (outcome === "failure") tally.failures += 1;
  if (outcome === "clientError") tally.clientErrors += 1;
  const duration = Math.max(0, Math.round(durationMs));
  tally.durationMsSum += duration;
  const index = bucketIndex(duration);
  tally.latencyBuckets[index] = (tally.latencyBuckets[index] ?? 0) + 1;
  if (!flushTimer) {
    flushTimer = setInterval(() => void flushGatewayCallMinutes(), flushIntervalMs);
    flushTimer.unref();
    beforeDbDisconnect(stopFlushing);
  }
}

async function writeTallies(tallies: TMinuteTally[]): Promise<void> {
  for (const tally of tallies) {
    await db.$executeRaw`
      INSERT INTO "GatewayCallMinute" ("operation", "minute", "calls", "failures", "clientErrors", "durationMsSum", "latencyBuckets")
      VALUES (${tally.operation}, (${tally.minute.toISOString()}::timestamptz AT TIME ZONE 'UTC'), ${tally.calls}::int,
              ${tally.failures}::int, ${tally.clientErrors}::int, ${tally.durationMsSum}::int, ${tally.latencyBuckets}::int[])
      ON CONFLICT ("operation", "minute") DO UPDATE SET
        "calls" = "GatewayCallMinute"."calls" + EXCLUDED."calls",
        "failures" = "GatewayCallMinute"."failures" + EXCLUDED."failures",
        "clientErrors" = "GatewayCallMinute"."clientErrors" + EXCLUDED."clientErrors",
        "durationMsSum" = "GatewayCallMinute"."durationMsSum" + EXCLUDED."durationMsSum",
        "latencyBuckets" = ARRAY(
          SELECT COALESCE(kept.count, 0) + COALESCE(added.count, 0)
          FROM unnest("GatewayCallMinute"."latencyBuckets") WITH ORDINALITY AS kept(count, position)
          FULL JOIN unnest(EXCLUDED."latencyBuckets") WITH ORDINALITY AS added(count, position) USING (position)
          ORDER BY position)`;
  }
}

/** Writes what this instance has counted; the timer calls it, and tests and shutdown may too. */
export async function flushGatewayCallMinutes(): Promise<void> {
  await flushing;
  if (pending.size === 0) return;
  const tallies = [...pending.values()];
  pending.clear();
  flushing = writeTallies(tallies)
    .catch((error: unknown) => {
      // Kept for the next flush: an outage of the database must not lose the figures of the gateway's.
      for (const tally of tallies) mergeBack(tally);
      log.warn({ err: error }, "gateway call minutes: flush failed, kept for the next one");
    })
    .finally(() => {
      flushing = undefined;
    });
  await flushing;
}

async function stopFlushing(): Promise<void> {
  clearInterval(flushTimer);
  flushTimer = undefined;
  await flushGatewayCallMinutes();
}

function mergeBack(tally: TMinuteTally): void {
  const key = `${tally.operation}\u0000${tally.minute.getTime()}`;
  const newer = pending.get(key);
  if (!newer) {
    pending.set(key, tally);
    return;
  }
  newer.calls += tally.calls;
  newer.failures += tally.failures;
  newer.clientErrors += tally.clientErrors;
  newer.durationMsSum += tally.durationMsSum;
  tally.latencyBuckets.forEach((count, index) => {
    newer.latencyBuckets[index] = (newer.latencyBuckets[index] ?? 0) + count;
  });
}

export type TGatewayCallSummary = {
  calls: number;
  failures: number;
  clientErrors: number;
  /** failures / calls, 0 when there was no call. */
  errorRate: number;
  p50Ms: number | null;
  p99Ms: number | null;
  averageMs: number | null;
};

/** The latency at quantile q, interpolated inside its bucket; above the last bound, the last bound. */
export function quantileOfBuckets(buckets: readonly number[], q: number): number | null {
  const total = buckets.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let index = 0; index < buckets.length; index += 1) {
    const count = buckets[index] ?? 0;
    if (count > 0 && seen + count >= rank) {
      const upper = gatewayLatencyBoundsMs[index];
      const lower = index === 0 ? 0 : (gatewayLatencyBoundsMs[index - 1] ?? 0);
      if (upper === undefined) return lower;
      return Math.round(lower + ((rank - seen) / count) * (upper - lower));
    }
    seen += count;
  }
  return gatewayLatencyBoundsMs.at(-1) ?? null;
}

type TMinuteRow = Pick<
  TMinuteTally,
  "operation" | "minute" | "calls" | "failures" | "clientErrors" | "durationMsSum" | "latencyBuckets"
>;

function summarizeMinutes(rows: readonly TMinuteRow[]): TGatewayCallSummary {
  const buckets = new Array<number>(gatewayLatencyBoundsMs.length + 1).fill(0);
  let calls = 0;
  let failures = 0;
  let clientErrors = 0;
  let durationMsSum = 0;
  for (const row of rows) {
    calls += row.calls;
    failures += row.failures;
    clientErrors += row.clientErrors;
    durationMsSum += row.durationMsSum;
    row.latencyBuckets.forEach((count, index) => {
      buckets[index] = (buckets[index] ?? 0) + count;
    });
  }
  return {
    calls,
    failures,
    clientErrors,
    errorRate: calls === 0 ? 0 : failures / calls,
    p50Ms: quantileOfBuckets(buckets, 0.5),
    p99Ms: quantileOfBuckets(buckets, 0.99),
    averageMs: calls === 0 ? null : Math.round(durationMsSum / calls),
  };
}

export type TGatewayCallWindow = { since: Date; until?: Date };

function readMinutes(window: TGatewayCallWindow): Promise<TMinuteRow[]> {
  return db.gatewayCallMinute.findMany({
    where: { minute: { gte: startOfMinute(window.since.getTime()), ...(window.until ? { lt: window.until } : {}) } },
    orderBy: [{ minute: "asc" }, { operation: "asc" }],
  });
}

/** Per operation (e.g. `createPixCharge`), over the window. */
export async function readGatewayCallSummaries(
  window: TGatewayCallWindow,
): Promise<Array<TGatewayCallSummary & { operation: string }>> {
  const byOperation = new Map<string, TMinuteRow[]>();
  for (const row of await readMinutes(window)) {
    const rows = byOperation.get(row.operation) ?? [];
    rows.push(row);
    byOperation.set(row.operation, rows);
  }
  return [...byOperation.entries()]
    .map(([operation, rows]) => ({ operation, ...summarizeMinutes(rows) }))
    .sort((a, b) => a.operation.localeCompare(b.operation));
}

/** All operations (or one) in steps of `stepMinutes`, for charts; steps without calls are left out. */
export async function readGatewayCallSeries(
  window: TGatewayCallWindow & { stepMinutes: number; operation?: string },
): Promise<Array<TGatewayCallSummary & { at: Date }>> {
  const stepMs = Math.max(1, Math.round(window.stepMinutes)) * 60_000;
  const bySteps = new Map<number, TMinuteRow[]>();
  for (const row of await readMinutes(window)) {
    if (window.operation && row.operation !== window.operation) continue;
    const step = row.minute.getTime() - (row.minute.getTime() % stepMs);
    const rows = bySteps.get(step) ?? [];
    rows.push(row);
    bySteps.set(step, rows);
  }
  return [...bySteps.entries()]
    .sort(([a], [b]) => a - b)
    .map(([step, rows]) => ({ at: new Date(step), ...summarizeMinutes(rows) }));
}
