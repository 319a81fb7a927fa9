// `npm run bench:overview`: the home overview's server query time on a throw-away PostgreSQL database seeded with
// 1 M mirrored Pix charges over a year (bulk generate_series), plus refunds, payment links and card payments.
// Options: --charges=1000000 --runs=50. Goal: p99 < 100 ms per period. Baselines from the same run: `SELECT 1` and
// `SELECT count(*)` of the charges. The overview-rollup job runs once after the seed (timed), as it would in service.
import os from "node:os";
import { defaultPeriod } from "@/lib/list/period";
import { percentile, runBenchmark, withBenchDatabase } from "./bench-common";

const goalMs = 100;

function readOptions(args: string[]) {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  return {
    charges: Number(value("charges") ?? 1_000_000),
    runs: Number(value("runs") ?? 50),
    explain: args.includes("--explain"),
  };
}

async function timeRuns(runs: number, work: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let index = 0; index < 3; index += 1) await work();
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const startedAt = performance.now();
    await work();
    times.push(performance.now() - startedAt);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

// Charges spread evenly over the last 365 days: 70 % paid (some refunded), the rest expired or still active.
const seedSql = (charges: number) => [
  `INSERT INTO "PixCharge" (txid, "amountCents", status, "creationDate", "expirationSeconds", "expiresAt", "paidAt",
     "paidAmountCents", "refundedCents", raw, "syncedAt", "updatedAt")
   SELECT 'BENCH' || lpad(i::text, 21, '0'), amount,
          CASE WHEN i % 20 = 0 THEN 'REFUNDED' WHEN i % 20 = 1 THEN 'PARTIALLY REFUNDED' WHEN i % 10 < 7 THEN 'PAID'
               WHEN i % 10 < 9 THEN 'EXPIRED' ELSE 'ACTIVE' END,
          created, 3600, created + interval '1 hour',
          CASE WHEN i % 10 < 7 THEN created + interval '40 seconds' END,
          CASE WHEN i % 10 < 7 THEN amount END,
          CASE WHEN i % 20 = 0 THEN amount WHEN i % 20 = 1 THEN amount / 2 ELSE 0 END,
          '{}'::jsonb, now(), now()
     FROM (SELECT i, (500 + (i::bigint * 7919) % 100000)::int AS amount,
                  (now() AT TIME ZONE 'UTC') - (i::float8 / ${charges} * interval '365 days') AS created
             FROM generate_series(1, ${charges}) AS i) s`,
  `INSERT INTO "PixRefund" ("pixRefundId", txid, "amountCents", "statusCode", "statusDescription", "creationDate",
     "settlementDate", raw, "syncedAt", "updatedAt")
   SELECT 'R' || txid, txid, "refundedCents", CASE WHEN row_number() OVER () % 50 = 0 THEN 2 ELSE 3 END, 'bench',
          "paidAt" + interval '1 day', "paidAt" + interval '1 day', '{}'::jsonb, now(), now()
     FROM "PixCharge" WHERE "refundedCents" > 0`,
  `INSERT INTO "PaymentLink" ("linkPaymentUuid", "linkPaymentId", "statusCode", "statusDescription", "amountCents",
     "payerName", "payerDocument", "isForeignPayer", installments, "installmentOptions", "acceptedMethodCodes",
     "paymentUrl", "verificationCode", "creationDate", "expirationDays", "expiresAt", "paidAt", "paidMethodCode",
     "pixChargeTxid", raw, "syncedAt", "updatedAt")
   SELECT gen_random_uuid()::text, i, CASE WHEN i % 3 = 0 THEN 3 ELSE 1 END, 'bench', 10000, 'Payer', '12345678909',
          false, 1, '[]'::jsonb, ARRAY[1, 2], 'https://pay.example/' || i, '123456', created, 7, created + interval '7 days',
          CASE WHEN i % 3 = 0 THEN created + interval '1 hour' END, CASE WHEN i % 3 = 0 THEN 2 END,
          CASE WHEN i % 6 = 0 THEN 'BENCH' || lpad((i * 10)::text, 21, '0') END, '{}'::jsonb, now(), now()
     FROM (SELECT i, (now() AT TIME ZONE 'UTC') - (i::float8 / 20000 * interval '365 days') AS created
             FROM generate_series(1, 20000) AS i) s`,
  `INSERT INTO "CardPayment" (id, status, "responseCode", "responseMessage", "isApproved", "amountCents",
     "cancelledCents", "occurredAt", origin, raw, "syncedAt", "updatedAt")
   SELECT gen_random_uuid()::text, CASE WHEN i % 25 = 0 THEN 'CAN' WHEN i % 10 = 1 THEN 'NEG' ELSE 'CON' END,
          CASE WHEN i % 10 = 1 THEN '51' ELSE '0' END, 'bench', i % 10 <> 1, 1000 + (i * 31) % 50000,
          CASE WHEN i % 25 = 0 THEN 1000 + (i * 31) % 50000 ELSE 0 END,
          (now() AT TIME ZONE 'UTC') - (i::float8 / 100000 * interval '365 days'), 'GATEWAY', '{}'::jsonb, now(), now()
     FROM generate_series(1, 100000) AS i`,
  "VACUUM ANALYZE",
];

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  return withBenchDatabase("payments_bench", async () => {
    const { runSql } = await import("@/lib/db/sql");
    const { getPostgresPool } = await import("@/lib/db/client");
    const { getOverview } = await import("@/lib/overview/overview");
    const { refreshOverviewDays } = await import("@/lib/overview/rollup");
    const { overviewMaxDays, resolveOverviewPeriod } = await import("@/lib/overview/schemas");

    const pool = getPostgresPool();
    if (!pool) throw new Error("bench:overview needs PostgreSQL");
    const seedStartedAt = performance.now();
    for (const statement of seedSql(options.charges)) await pool.query(statement);
    const counts = (
      await pool.query<{ charges: string; refunds: string; links: string; cards: string }>(
        `SELECT (SELECT count(*) FROM "PixCharge") AS charges, (SELECT count(*) FROM "PixRefund") AS refunds,
                (SELECT count(*) FROM "PaymentLink") AS links, (SELECT count(*) FROM "CardPayment") AS cards`,
      )
    ).rows[0]!;
    console.log(
      `seeded ${counts.charges} charges, ${counts.refunds} refunds, ${counts.links} links, ${counts.cards} card ` +
        `payments in ${((performance.now() - seedStartedAt) / 1000).toFixed(1)} s; PostgreSQL, ${os.cpus().length} CPUs, ` +
        `${options.runs} runs each`,
    );

    // The overview-rollup job's first run over the seeded year (every day is new), then one with nothing to do.
    const refreshStartedAt = performance.now();
    const refreshed = await refreshOverviewDays();
    const refreshMs = performance.now() - refreshStartedAt;
    const idleStartedAt = performance.now();
    await refreshOverviewDays();
    console.log(
      `rollup: ${refreshed.days} days in ${refreshed.batches} batches, ${(refreshMs / 1000).toFixed(1)} s; ` +
        `a run with nothing to recompute ${(performance.now() - idleStartedAt).toFixed(1)} ms`,
    );

    const rows: [string, { p50: number; p99: number }][] = [];
    rows.push(["baseline SELECT 1", await timeRuns(options.runs, () => runSql("SELECT 1 AS one", []))]);
    rows.push([
      "baseline SELECT count(*) FROM PixCharge",
      await timeRuns(options.runs, () => runSql(`SELECT count(*)::int AS n FROM "PixCharge"`, [])),
    ]);
    const year = defaultPeriod(new Date(), 365);
    const periods = [
      ["today", { period: "today" }],
      ["7 days", { period: "7d" }],
      ["30 days", { period: "30d" }],
      ["custom 365 days", { period: "custom", ...year }],
      ["custom 366 days (the most)", { period: "custom", ...defaultPeriod(new Date(), overviewMaxDays) }],
      ["custom 30 closed days", { period: "custom", ...defaultPeriod(new Date(Date.now() - 60 * 86_400_000), 30) }],
    ] as const;
    for (const [label, params] of periods) {
      const period = resolveOverviewPeriod({ from: undefined, to: undefined, ...params });
      rows.push([`overview ${label}`, await timeRuns(options.runs, () => getOverview(period))]);
    }
    // For comparison, not against the goal: the year with every day computed live (as before the rollup, or for
    // days the job has not written yet).
    const live = resolveOverviewPeriod({ period: "custom", ...year });
    rows.push([
      "live 365 days, no rollup (reference)",
      await timeRuns(Math.min(options.runs, 10), () => getOverview(live, { useRollup: false })),
    ]);

    if (options.explain) {
      // The plans of the 365-day overview's statements (JIT off, as getOverview runs them), to see where time goes.
      const client = await pool.connect();
      await client.query("SET jit = off");
      const explain = async <TRow>(text: string, values: unknown[]): Promise<TRow[]> => {
        const plan = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
        console.log(plan.rows.map((row) => row["QUERY PLAN"]).join("\n"));
        return (await client.query(text, values)).rows as TRow[];
      };
      await getOverview(resolveOverviewPeriod({ period: "custom", ...year }), { run: explain });
      client.release(true);
    }

    const pad = Math.max(...rows.map(([label]) => label.length));
    console.log(`${"query".padEnd(pad)}  ${"p50".padStart(9)}  ${"p99".padStart(9)}  goal p99 < ${goalMs} ms`);
    let failed = false;
    for (const [label, { p50, p99 }] of rows) {
      const isOverview = label.startsWith("overview ");
      const verdict = isOverview ? (p99 < goalMs ? "ok" : "OVER") : "";
      failed ||= verdict === "OVER";
      console.log(
        `${label.padEnd(pad)}  ${p50.toFixed(2).padStart(6)} ms  ${p99.toFixed(2).padStart(6)} ms  ${verdict}`,
      );
    }
    return failed ? 1 : 0;
  });
}

runBenchmark(main);
