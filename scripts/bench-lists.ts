// `npm run bench:lists`: the Pix charge, webhook delivery and audit lists' server time, through the functions their
// pages call (findPixCharges, findWebhookDeliveries, findAuditEntries: count + one page), on a throw-away PostgreSQL
// database seeded with 1,000,000 rows of each over a year (one INSERT … SELECT generate_series per table).
// Options: --rows=1000000 --runs=30 --warmup=3 --explain (plans of the slowest statements)
//          --keep (leave the database, print its URL) --database-url=… (reuse a kept one, no seeding).
// Goal: p50 < 50 ms per list call. Baselines from the same run: a `SELECT 1` round trip and a plain `count(*)`.
import os from "node:os";
import { applyMigrations } from "@/lib/db/migrate";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import { runBenchmark } from "./bench-common";
import { time } from "./bench-timing";

const goalMs = 50;

function readOptions(args: string[]) {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  return {
    rows: Number(value("rows") ?? 1_000_000),
    runs: Number(value("runs") ?? 30),
    warmup: Number(value("warmup") ?? 3),
    keep: args.includes("--keep"),
    databaseUrl: value("database-url"),
  };
}

const randomInstant = `date_trunc('milliseconds', (now() AT TIME ZONE 'UTC') - random() * interval '365 days')`;

// A year of rows at random instants (timestamp(3), as Prisma writes them), inserted oldest first as they arrive
// (the mirror, the receiver and the audit log append as things happen). Pix: 65 % paid, 20 % expired, a few
// refunded, active or cancelled; amounts R$ 1 to R$ 2,000 skewed low; a third with a debtor among 5,000 CPFs.
// Deliveries: three events, 85 % applied, some duplicates, failures and bad signatures. Audit: sign-ins mostly,
// 40 staff, some changes on charges and webhooks.
const seedSql = (rows: number) => [
  `INSERT INTO "PixCharge" (txid, "amountCents", status, "creationDate", "expirationSeconds", "expiresAt", "paidAt",
     "paidAmountCents", "refundedCents", "debtorName", "debtorCpf", "userReference", raw, "syncedAt", "updatedAt")
   SELECT 'BENCH' || lpad(i::text, 21, '0'), amount,
          CASE WHEN s < 0.60 THEN 'PAID' WHEN s < 0.63 THEN 'REFUNDED' WHEN s < 0.65 THEN 'PARTIALLY REFUNDED'
               WHEN s < 0.85 THEN 'EXPIRED' WHEN s < 0.95 THEN 'ACTIVE' ELSE 'Cancelada' END,
          created, 3600, created + interval '1 hour',
          CASE WHEN s < 0.65 THEN created + interval '40 seconds' END,
          CASE WHEN s < 0.65 THEN amount END,
          CASE WHEN s >= 0.60 AND s < 0.63 THEN amount WHEN s >= 0.63 AND s < 0.65 THEN amount / 2 ELSE 0 END,
          CASE WHEN d THEN 'Payer ' || (i % 5000) END,
          CASE WHEN d THEN lpad(((i % 5000) * 7919 % 100000000000)::text, 11, '0') END,
          CASE WHEN i % 2 = 0 THEN 'order-' || i END,
          '{}'::jsonb, now(), now()
     FROM (SELECT i, random() AS s, random() < 0.33 AS d,
                  (100 + floor(random() * random() * 200000))::int AS amount,
                  ${randomInstant} AS created
             FROM generate_series(1, ${rows}) AS i) s
    ORDER BY created`,
  `INSERT INTO "WebhookDelivery" (id, "pathId", "deliveryId", event, "receivedAt", headers, "rawBody",
     "signatureValid", outcome, "eventKey", "resourceType", "resourceId", "applyAttempts")
   SELECT gen_random_uuid(), 'bench', 'dlv-' || i,
          (ARRAY['pix_charge.paid','pix_charge.paid','pix_charge.paid','pix_refund.returned','link_payment.paid'])
            [1 + floor(random() * 5)::int],
          at, '{}'::jsonb,
          '\\x7b7d'::bytea, s >= 0.02,
          (CASE WHEN s < 0.02 THEN 'REJECTED_SIGNATURE' WHEN s < 0.05 THEN 'FAILED' WHEN s < 0.06 THEN 'PENDING'
                WHEN s < 0.09 THEN 'IGNORED' WHEN s < 0.15 THEN 'DUPLICATE' ELSE 'APPLIED' END)::"WebhookDeliveryOutcome",
          NULL, 'pix_charge', 'BENCH' || lpad((1 + floor(random() * ${rows}))::bigint::text, 21, '0'), 1
     FROM (SELECT i, random() AS s, ${randomInstant} AS at FROM generate_series(1, ${rows}) AS i) s
    ORDER BY at`,
  `INSERT INTO "AuditLog" (id, "occurredAt", "actorEmail", action, "resourceType", "resourceId", ip)
   SELECT gen_random_uuid(), at,
          'staff' || floor(random() * 40)::int || '@example.com',
          CASE WHEN s < 0.55 THEN 'auth.sign_in' WHEN s < 0.65 THEN 'auth.sign_out'
               WHEN s < 0.70 THEN 'auth.sign_in_failed' WHEN s < 0.90 THEN 'pix_charge.created'
               WHEN s < 0.97 THEN 'pix_charge.cancelled' WHEN s < 0.99 THEN 'settings.changed' ELSE 'user.created' END,
          CASE WHEN s >= 0.70 AND s < 0.97 THEN 'pix_charge' ELSE 'user' END,
          'BENCH' || lpad(i::text, 21, '0'), '203.0.113.' || (i % 250)
     FROM (SELECT i, random() AS s, ${randomInstant} AS at FROM generate_series(1, ${rows}) AS i) s
    ORDER BY at`,
  // As autovacuum would have by now: statistics, and the visibility map for index-only scans.
  `VACUUM ANALYZE "PixCharge", "WebhookDelivery", "AuditLog"`,
];

type TScenario = { label: string; run: () => Promise<unknown>; isGoal?: boolean };

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const database = options.databaseUrl ? null : await createThrowawayDatabase("payments_bench");
  const url = options.databaseUrl ?? database!.url;
  try {
    if (database) await applyMigrations({ kind: "postgres", url });
    // Set before the app's modules read them (they are imported below, on purpose).
    Object.assign(process.env, { DATABASE_URL: url, LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
    const { db, disconnectDb, getPostgresPool } = await import("@/lib/db/client");
    const { findPixCharges } = await import("@/lib/pix/charges");
    const { ZPixChargeFilters } = await import("@/lib/pix/schemas");
    const { findWebhookDeliveries } = await import("@/lib/webhooks/history");
    const { ZDeliveryFilters } = await import("@/lib/webhooks/schemas");
    const { findAuditEntries } = await import("@/lib/audit/audit-log");
    const { ZAuditFilters } = await import("@/lib/audit/schemas");
    const { defaultPeriod } = await import("@/lib/list/period");
    const { encodeCursor } = await import("@/lib/list/cursor");
    const { listNumberedRows } = await import("@/lib/list/query");

    const pool = getPostgresPool();
    if (!pool) throw new Error("bench:lists needs PostgreSQL");
    if (database) {
      const seededAt = performance.now();
      for (const statement of seedSql(options.rows)) await pool.query(statement);
      console.log(
        `seeded ${options.rows.toLocaleString("en")} Pix charges, webhook deliveries and audit entries in ` +
          `${((performance.now() - seededAt) / 1000).toFixed(1)} s`,
      );
    }
    if (options.keep) console.log(`database kept: --database-url=${url}`);

    // A row half-way down each year-long list: what "next" from page 25,000 would start after.
    const middle = Math.floor(options.rows / 2);
    const deepRow = async (table: string, dateColumn: string, idColumn: string) =>
      (
        await pool.query<{ date: Date; id: string }>(
          `SELECT "${dateColumn}" AS date, "${idColumn}"::text AS id FROM "${table}"
            ORDER BY "${dateColumn}" DESC, "${idColumn}" DESC OFFSET ${middle} LIMIT 1`,
        )
      ).rows[0]!;
    const afterRow = (sort: string, row: { date: Date; id: string }) =>
      encodeCursor({ direction: "after", sort, order: "desc", value: row.date, id: row.id });
    const year = defaultPeriod(new Date(), 365);
    const month = defaultPeriod(new Date(), 30);
    const cpf = (
      await pool.query<{ cpf: string }>(
        `SELECT "debtorCpf" AS cpf FROM "PixCharge" WHERE "debtorCpf" IS NOT NULL LIMIT 1`,
      )
    ).rows[0]?.cpf;
    const deepPix = afterRow("creationDate", await deepRow("PixCharge", "creationDate", "txid"));
    const deepDelivery = afterRow("receivedAt", await deepRow("WebhookDelivery", "receivedAt", "id"));
    const deepAudit = afterRow("occurredAt", await deepRow("AuditLog", "occurredAt", "id"));
    const lastNumberedPix = Math.floor(listNumberedRows / 20);
    // Deliveries and audit entries are 50 to a page.
    const lastNumberedAudit = Math.floor(listNumberedRows / 50);

    const pix = (input: Record<string, unknown>) => () => findPixCharges(ZPixChargeFilters.parse(input));
    const deliveries = (input: Record<string, unknown>) => () => findWebhookDeliveries(ZDeliveryFilters.parse(input));
    const audit = (input: Record<string, unknown>) => () => findAuditEntries(ZAuditFilters.parse(input));

    const scenarios: TScenario[] = [
      { label: "baseline: SELECT 1 round trip", run: () => db.$queryRaw`SELECT 1` },
      { label: 'baseline: SELECT count(*) FROM "PixCharge"', run: () => db.pixCharge.count() },
      { label: 'baseline: SELECT count(*) FROM "WebhookDelivery"', run: () => db.webhookDelivery.count() },
      { label: 'baseline: SELECT count(*) FROM "AuditLog"', run: () => db.auditLog.count() },
      { label: "pix: first page (default 7 days)", run: pix({}), isGoal: true },
      { label: "pix: first page, 365 days", run: pix(year), isGoal: true },
      { label: "pix: status PAID + 30 days", run: pix({ ...month, status: "PAID" }), isGoal: true },
      {
        label: "pix: status ACTIVE + 365 days by amount",
        run: pix({ ...year, status: "ACTIVE", sort: "amount" }),
        isGoal: true,
      },
      { label: "pix: paid in 30 days (date=paid)", run: pix({ ...month, date: "paid" }), isGoal: true },
      { label: "pix: debtor CPF + 365 days", run: pix({ ...year, document: cpf }), isGoal: true },
      {
        label: `pix: last numbered page (${lastNumberedPix}), 365 days`,
        run: pix({ ...year, page: String(lastNumberedPix) }),
        isGoal: true,
      },
      {
        label: "pix: deep page by cursor (row 500,000), 365 days",
        run: pix({ ...year, cursor: deepPix }),
        isGoal: true,
      },
      { label: "deliveries: first page", run: deliveries({}), isGoal: true },
      { label: "deliveries: outcome FAILED + 30 days", run: deliveries({ ...month, outcome: "FAILED" }), isGoal: true },
      {
        label: "deliveries: event pix_refund.returned + 365 days",
        run: deliveries({ ...year, event: "pix_refund.returned" }),
        isGoal: true,
      },
      {
        label: `deliveries: last numbered page (${lastNumberedAudit})`,
        run: deliveries({ page: String(lastNumberedAudit) }),
        isGoal: true,
      },
      {
        label: "deliveries: deep page by cursor (row 500,000)",
        run: deliveries({ cursor: deepDelivery }),
        isGoal: true,
      },
      { label: "audit: first page", run: audit({}), isGoal: true },
      {
        label: "audit: action pix_charge.cancelled + 30 days",
        run: audit({ ...month, action: "pix_charge.cancelled" }),
        isGoal: true,
      },
      { label: "audit: actor contains + 30 days", run: audit({ ...month, actor: "staff7@" }), isGoal: true },
      {
        label: `audit: last numbered page (${lastNumberedAudit})`,
        run: audit({ page: String(lastNumberedAudit) }),
        isGoal: true,
      },
      { label: "audit: deep page by cursor (row 500,000)", run: audit({ cursor: deepAudit }), isGoal: true },
    ];

    console.log(
      `lists, in-process (count + page via Prisma, as the pages call them), PostgreSQL, ${os.cpus().length} CPUs, ` +
        `${options.runs} runs each after ${options.warmup} warm-up`,
    );
    const width = Math.max(...scenarios.map((item) => item.label.length));
    let meetsGoal = true;
    for (const item of scenarios) {
      const { p50, p99 } = await time(item.label, { requests: options.runs, warmup: options.warmup }, async () => {
        await item.run();
      });
      if (item.isGoal && p50 >= goalMs) meetsGoal = false;
      const mark = item.isGoal ? `   goal p50 < ${goalMs} ms: ${p50 < goalMs ? "met" : "NOT met"}` : "";
      console.log(
        `  ${item.label.padEnd(width)}   p50 ${p50.toFixed(2).padStart(7)} ms   p99 ${p99.toFixed(2).padStart(7)} ms${mark}`,
      );
    }
    console.log(`  machine load average (1 min) ${os.loadavg()[0]!.toFixed(1)}`);
    await disconnectDb();
    return meetsGoal ? 0 : 1;
  } finally {
    if (database && !options.keep) await database.drop();
  }
}

runBenchmark(main);
