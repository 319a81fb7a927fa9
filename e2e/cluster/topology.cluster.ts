import { execFileSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Browser, type BrowserContext, test as base, expect, type Page } from "@playwright/test";
import pg from "pg";
import { LoginPage } from "../pages/login-page";
import { NewPixChargePage } from "../pages/new-pix-charge-page";
import { PayPage } from "../pages/pay-page";
import { PixChargePage } from "../pages/pix-charge-page";
import { LinkGateway } from "../pay-gateway";
import { SandboxClient } from "../sandbox-client";
import { SandboxControl } from "../sandbox-control";
import { clusterDataDir, clusterLogsDir, clusterStateFile, type TClusterState } from "./state";

// The production topology (docs/deploy.md, e2e/servers/cluster.ts): what one instance does, the others see, through
// PostgreSQL: live updates (LISTEN/NOTIFY), rate limits, the job lease; and losing an instance loses no work.

type TFixtures = { sandbox: SandboxControl; links: LinkGateway; sandboxClient: SandboxClient };
type TWorkerFixtures = { cluster: TClusterState; db: pg.Pool; staffState: string };

// The launcher writes the state file just after the proxy answers, which is Playwright's signal.
async function readState(): Promise<TClusterState> {
  for (let tries = 0; tries < 50 && !existsSync(clusterStateFile); tries++) await sleep(100);
  return JSON.parse(readFileSync(clusterStateFile, "utf8")) as TClusterState;
}

const test = base.extend<TFixtures, TWorkerFixtures>({
  cluster: [async ({}, use) => use(await readState()), { scope: "worker" }],
  db: [
    async ({ cluster }, use) => {
      const pool = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
      await use(pool);
      await pool.end();
    },
    { scope: "worker" },
  ],
  // Staff signs in once, through the proxy; the session cookie works on every instance (one AUTH_SECRET), and
  // cookies do not tell ports apart, so it also reaches the instances' own ports.
  staffState: [
    async ({ browser, cluster }, use) => {
      const file = path.join(clusterDataDir, "staff.json");
      const context = await browser.newContext({ baseURL: cluster.proxyUrl });
      const page = await context.newPage();
      const login = new LoginPage(page);
      await login.goto();
      await login.signIn(cluster.users.staff.email, cluster.users.staff.password);
      await expect(page.getByText(cluster.users.staff.name).first()).toBeVisible();
      await context.storageState({ path: file });
      await context.close();
      await use(file);
    },
    { scope: "worker" },
  ],
  // One client address per test, as e2e/fixtures.ts does: the instances trust one proxy hop.
  extraHTTPHeaders: async ({}, use) => use({ "x-forwarded-for": clientAddress() }),
  sandboxClient: async ({ cluster }, use) => {
    const client = new SandboxClient(cluster.sandboxUrl);
    await use(client);
    await client.close();
  },
  sandbox: async ({ sandboxClient }, use) => use(new SandboxControl(sandboxClient)),
  links: async ({ sandboxClient }, use) => use(new LinkGateway(sandboxClient)),
});

test.describe.configure({ mode: "serial" });

function clientAddress(): string {
  return `198.18.${randomInt(256)}.${randomInt(1, 255)}`;
}

async function signedOutContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": clientAddress() } });
}

async function markNoReload(page: Page) {
  await page.evaluate(() => Object.assign(window, { e2eNoReload: true }));
}

async function expectNoReload(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
}

async function query<T>(db: pg.Pool, sql: string, values: unknown[] = []): Promise<T[]> {
  return (await db.query(sql, values)).rows as T[];
}

/** The receiver the launcher registered (ensureOwnWebhook): its local id names the path, upstream id the gateway's. */
async function ownWebhook(db: pg.Pool) {
  const [webhook] = await query<{ id: string; upstreamId: string; url: string; events: string[] }>(
    db,
    `SELECT "id", "upstreamId", "url", "events"::text[] AS "events" FROM "Webhook"
     WHERE "isActive" AND "upstreamId" IS NOT NULL ORDER BY "createdAt" LIMIT 1`,
  );
  if (!webhook) throw new Error("the launcher registered no webhook receiver");
  return webhook;
}

type TAttempt = { deliveryId: string; attempt: number; url: string; responseStatus: number | null; outcome: string };

async function deliveryAttempts(sandboxClient: SandboxClient): Promise<TAttempt[]> {
  return (await sandboxClient.call("GET", "/sandbox/v1/webhook-deliveries?event=pix_charge.paid")) as TAttempt[];
}

function report(figures: Record<string, string | number>) {
  console.log(
    `[cluster] ${Object.entries(figures)
      .map(([name, value]) => `${name}: ${value}`)
      .join(", ")}`,
  );
}

test("[CLUSTER] a charge page on instance B turns paid without reload when the webhook reaches instance A", async ({
  browser,
  cluster,
  db,
  staffState,
  sandbox,
  sandboxClient,
}) => {
  const [instanceA, instanceB] = cluster.instances;
  const context = await browser.newContext({ baseURL: cluster.proxyUrl, storageState: staffState });
  const page = await context.newPage();
  const txid = await new NewPixChargePage(page).create({ amount: "31,40" });
  // One page on instance B's own port, one through nginx (its stream unbuffered, on whichever instance).
  const pages = [page, await context.newPage()];
  const urls = [`${instanceB!.url}/pix/${txid}`, `${cluster.proxyUrl}/pix/${txid}`];
  for (const [index, each] of pages.entries()) {
    const eventsUrl = new URL("/api/events", urls[index]).toString();
    const stream = each.waitForResponse((response) => response.url() === eventsUrl);
    await each.goto(urls[index]!);
    expect((await stream).status()).toBe(200);
    await new PixChargePage(each).expectStatus("Aguardando pagamento", "ACTIVE");
    await markNoReload(each);
  }

  // The gateway sends this one delivery straight to instance A's port, past the proxy.
  const webhook = await ownWebhook(db);
  const receiverAtA = `${instanceA!.url}/api/webhooks/gateway/${webhook.id}`;
  const retarget = (url: string) =>
    sandboxClient.call("PUT", `/api/v1/webhooks/${webhook.upstreamId}`, { url, events: webhook.events, active: true });
  await retarget(receiverAtA);
  try {
    await sandbox.payPixCharge(txid);
    // With a webhook pushing payments the pages poll only every 30 s: within 10 s they heard their instance's change
    // stream, which heard A's NOTIFY through PostgreSQL.
    for (const each of pages) await new PixChargePage(each).expectStatus("Paga", "PAID", { timeout: 10_000 });
  } finally {
    await retarget(webhook.url);
  }
  for (const each of pages) await expectNoReload(each);
  const toA = (await deliveryAttempts(sandboxClient)).filter(
    (attempt) => attempt.url === receiverAtA && attempt.outcome === "delivered",
  );
  expect(toA).toHaveLength(1);
  const [effects] = await query<{ count: number }>(
    db,
    `SELECT count(*)::int AS count FROM "WebhookEffect" WHERE "eventKey" = $1`,
    [`pix_charge.paid:${txid}:PAID`],
  );
  expect(effects!.count).toBe(1);
  report({ "live update": `webhook at ${instanceA!.name}; pages on ${instanceB!.name} and through nginx, no reload` });
  await context.close();
});

test("[CLUSTER] sign-in failures spread over two instances slow the account down at the same count as on one", async ({
  browser,
  cluster,
}) => {
  const victim = cluster.users.locked;
  const context = await signedOutContext(browser);
  const pages = await Promise.all(
    cluster.instances.map(async (instance) => {
      const page = await context.newPage();
      await page.goto(`${instance.url}/login`);
      return page;
    }),
  );
  const signIn = async (attempt: number, password: string) => {
    const page = pages[attempt % pages.length]!;
    const answered = page.waitForResponse((response) => response.request().method() === "POST");
    await new LoginPage(page).signIn(victim.email, password);
    await answered;
    return page;
  };
  // Five free failures per account (lib/auth/sign-in.ts): A, B, A, B, A. Then each waits twice as long as the one
  // before, counted in the shared database, so the wait comes as soon as on one instance (e2e/auth.spec.ts).
  for (let attempt = 0; attempt < 5; attempt++) {
    await signIn(attempt, `wrong-${attempt}`);
    await new LoginPage(pages[attempt % pages.length]!).expectError("E-mail ou senha incorretos.");
  }
  const waitMessage = /Muitas tentativas\. Aguarde (\d+) segundos? e tente novamente\./;
  let waitSeconds = 0;
  let waitedAt = -1;
  for (let attempt = 5; attempt < 12 && waitSeconds === 0; attempt++) {
    const page = await signIn(attempt, `wrong-${attempt}`);
    const alert = page.getByRole("alert").filter({ hasText: /E-mail ou senha incorretos\.|Muitas tentativas/ });
    await expect(alert).toBeVisible();
    const match = waitMessage.exec((await alert.textContent()) ?? "");
    if (match) [waitSeconds, waitedAt] = [Number(match[1]), attempt + 1];
  }
  expect(waitSeconds).toBeGreaterThan(0);
  report({ "sign-in delay": `attempt ${waitedAt} told to wait ${waitSeconds} s, failures over 2 instances` });
  await context.close();
});

test("[CLUSTER] wrong verification codes and refused cards count across instances", async ({
  browser,
  cluster,
  links,
}) => {
  test.setTimeout(90_000);
  const context = await signedOutContext(browser);
  const open = async (linkPaymentUuid: string) =>
    Promise.all(
      cluster.instances.map(async (instance) => {
        const page = await context.newPage();
        await page.goto(`${instance.url}/pay/${linkPaymentUuid}`);
        return { page, pay: new PayPage(page) };
      }),
    );

  // Codes: five per link per window (lib/links/pay-page-verify.ts), counted wherever they are typed.
  const coded = await links.createLink();
  const wrong = coded.tokenVerificacao === 123456 ? 654321 : 123456;
  const codePages = await open(coded.linkPaymentUuid);
  for (let attempt = 0; attempt < 5; attempt++) {
    const { page, pay } = codePages[attempt % codePages.length]!;
    await pay.enterCode(wrong);
    await expect(page.getByText("Código incorreto.", { exact: false })).toBeVisible();
  }
  const sixth = codePages[5 % codePages.length]!;
  await sixth.pay.enterCode(coded.tokenVerificacao);
  await expect(sixth.page.getByText(/Muitas tentativas\. Por segurança, tente de novo em/)).toBeVisible();
  await expect(sixth.page.getByText("Parcelas")).toBeHidden();

  // Cards: three refusals per link (lib/links/card-attempts.ts): A, B, A, then even a good card on B is not sent.
  const carded = await links.createLink({ valor: 80, numeroParcelas: 1 });
  const cardPages = await open(carded.linkPaymentUuid);
  for (const { page, pay } of cardPages) {
    await pay.verify(carded.tokenVerificacao);
    await expect(page.getByText("Parcelas")).toBeVisible();
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const { page, pay } = cardPages[attempt % cardPages.length]!;
    const answered = page.waitForResponse((response) => response.request().method() === "POST");
    // Three different refused cards: the same card again would be stopped by its advice code first.
    await pay.payByCard({ number: ["4000000000000002", "4000000000009995", "4000000000000069"][attempt]! });
    await answered;
    await expect(page.getByText("O pagamento não foi aprovado. Confira os dados ou use outro cartão.")).toBeVisible();
  }
  const fourth = cardPages[3 % cardPages.length]!;
  await fourth.pay.payByCard({ number: "4111111111111111" });
  await expect(
    fourth.page
      .getByRole("alert")
      .filter({ hasText: /o pagamento com cartão deste link está suspenso até \d{2}:\d{2}/ }),
  ).toBeVisible();
  report({ "code lock": "after 5 wrong codes over 2 instances", "card lock": "after 3 refusals over 2 instances" });
  await context.close();
});

type TRun = { jobName: string; trigger: string; runnerId: string; startedAt: Date; finishedAt: Date | null };

function runnerIdsInLogs(prefix: string): { ids: string[]; files: number } {
  const files = ["worker-1", "worker-2", "worker-3", "worker-4", "instance-a", "instance-b", "instance-c"]
    .filter((name) => name.startsWith(prefix))
    .map((name) => path.join(clusterLogsDir, `${name}.log`))
    .filter((file) => existsSync(file));
  const ids = files.flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/"runnerId":"([^"]+)".*"msg":"jobs: runner started"/g)].map(
      (match) => match[1]!,
    ),
  );
  return { ids, files: files.length };
}

test("[CLUSTER] every job runs once across the instances and two workers, only in the workers", async ({
  cluster,
  db,
}) => {
  test.setTimeout(60_000);
  const [{ now }] = (await query<{ now: Date }>(db, `SELECT (now() AT TIME ZONE 'UTC') AS now`)) as [{ now: Date }];
  // "Run now" for every job at once, as an admin's button does (lib/jobs/store.ts requestRun).
  const jobs = await query<{ name: string }>(
    db,
    `UPDATE "Job" SET "runRequestedAt" = (now() AT TIME ZONE 'UTC') RETURNING "name"`,
  );
  expect(jobs.length).toBeGreaterThanOrEqual(5);
  const manualRuns = () =>
    query<TRun>(
      db,
      `SELECT "jobName", "trigger", "runnerId", "startedAt", "finishedAt" FROM "JobRun"
       WHERE "trigger" = 'MANUAL' AND "startedAt" >= $1`,
      [now],
    );
  await expect
    .poll(async () => (await manualRuns()).filter((run) => run.finishedAt !== null).length, { timeout: 40_000 })
    .toBe(jobs.length);
  // Long enough for a second claim of any job (the workers poll every 2 s) to show up.
  await sleep(3_000);
  const manual = await manualRuns();
  expect(manual.map((run) => run.jobName).sort()).toEqual(jobs.map((job) => job.name).sort());

  const runs = await query<TRun>(
    db,
    `SELECT "jobName", "trigger", "runnerId", "startedAt", "finishedAt" FROM "JobRun" ORDER BY "jobName", "startedAt"`,
  );
  // Only the workers run jobs; the instances say so at start and never start a runner.
  const workers = runnerIdsInLogs("worker");
  expect(workers.ids).toHaveLength(cluster.workers);
  expect(runnerIdsInLogs("instance").ids).toEqual([]);
  for (const instance of cluster.instances) {
    expect(readFileSync(path.join(clusterLogsDir, `${instance.name}.log`), "utf8")).toContain(
      "jobs: this web server runs no jobs",
    );
  }
  expect(runs.filter((run) => !workers.ids.includes(run.runnerId))).toEqual([]);
  // Never two runs of one job at once: each starts after the previous one ended.
  const overlaps = runs.filter((run, index) => {
    const previous = runs[index - 1];
    return previous?.jobName === run.jobName && (previous.finishedAt === null || previous.finishedAt > run.startedAt);
  });
  expect(overlaps).toEqual([]);
  // The reconciler: one reconciliation run per job run since the request (the scheduled one may fall inside too).
  const [reconciliations] = await query<{ count: number }>(
    db,
    `SELECT count(*)::int AS count FROM "ReconciliationRun" WHERE "startedAt" >= $1`,
    [now],
  );
  const reconciliationJobRuns = runs.filter((run) => run.jobName === "reconciliation" && run.startedAt >= now);
  expect(reconciliations!.count).toBe(reconciliationJobRuns.length);
  // The 5-second webhook-retry job: no more runs than its schedule allows, however many runners poll.
  const retryRuns = runs.filter((run) => run.jobName === "webhook-retry" && run.trigger === "SCHEDULE");
  if (retryRuns.length > 1) {
    const spanMs = retryRuns.at(-1)!.startedAt.getTime() - retryRuns[0]!.startedAt.getTime();
    expect(retryRuns.length).toBeLessThanOrEqual(Math.floor(spanMs / 5_000) + 1);
  }
  const byRunner = new Map<string, number>();
  for (const run of runs) byRunner.set(run.runnerId, (byRunner.get(run.runnerId) ?? 0) + 1);
  report({
    instances: cluster.instances.length,
    workers: cluster.workers,
    "jobs run": runs.length,
    "manual runs": `${manual.length} for ${jobs.length} jobs`,
    "runs per worker": [...byRunner.values()].join("/"),
    "runs by instances": 0,
    "overlapping runs": overlaps.length,
  });

  // Each worker serves its own job counters to Prometheus, behind the same token as the instances' /api/metrics.
  const runsCounted = new Map<string, number>();
  for (const url of cluster.workerMetrics.urls) {
    expect((await fetch(url)).status).toBe(401);
    const scrape = await fetch(url, { headers: { authorization: `Bearer ${cluster.workerMetrics.token}` } });
    expect(scrape.status).toBe(200);
    for (const [, job, count] of (await scrape.text()).matchAll(
      /^payments_job_runs_total\{job="([^"]+)",[^}]*\} (\d+)$/gm,
    ))
      runsCounted.set(job!, (runsCounted.get(job!) ?? 0) + Number(count));
  }
  for (const job of jobs) expect(runsCounted.get(job.name) ?? 0, job.name).toBeGreaterThanOrEqual(1);
  report({ "job runs in the workers' metrics": [...runsCounted.values()].reduce((sum, count) => sum + count, 0) });
});

test("[CLUSTER] killing an instance mid-traffic loses no delivery and no acknowledged request", async ({
  browser,
  cluster,
  db,
  staffState,
  sandboxClient,
  sandbox,
}) => {
  test.setTimeout(90_000);
  const chargeCount = 24;
  const victim = cluster.instances[1]!;
  const seenBefore = new Set((await deliveryAttempts(sandboxClient)).map((attempt) => attempt.deliveryId));
  // Charges made at the gateway: each paid one is pushed through the proxy, and the receiver mirrors it.
  const txids: string[] = [];
  for (let index = 0; index < chargeCount; index++) {
    const charge = (await sandboxClient.call("POST", "/api/v1/pix-charges", {
      amount: 10 + index / 100,
      expiration: 600,
      description: `cluster ${index}`,
    })) as { txid: string };
    txids.push(charge.txid);
  }

  // Reads through the proxy the whole time: a signed-in API read and the health check, three at a time.
  const context = await browser.newContext({ baseURL: cluster.proxyUrl, storageState: staffState });
  const reads = { ok: 0, failed: [] as { url: string; answer: string; at: number }[] };
  let isReading = true;
  const reader = async (index: number) => {
    while (isReading) {
      const url = index % 2 === 0 ? "/api/health" : `/api/pix/charges/${txids[index % txids.length]}`;
      const response = await context.request.get(url, { failOnStatusCode: false }).catch(() => null);
      if (response?.ok()) reads.ok++;
      else reads.failed.push({ url, answer: String(response?.status() ?? "cut off"), at: Date.now() });
    }
  };
  const readers = [0, 1, 2].map(reader);

  // The burst: the payments follow one another over about 3 s; the instance dies a third of the way in.
  const victimPid = (JSON.parse(readFileSync(clusterStateFile, "utf8")) as TClusterState).instances[1]!.pid;
  let killedAt = 0;
  // The proxy's log also holds the start-up's health polls (502 until an instance answers): count from here on.
  const accessLogBytesBefore = statSync(cluster.accessLog).size;
  for (let index = 0; index < chargeCount; index++) {
    if (index === chargeCount / 3) {
      process.kill(-victimPid, "SIGKILL");
      killedAt = Date.now();
    }
    await sandbox.payPixCharge(txids[index]!);
    await sleep(120);
  }

  const eventKeys = txids.map((txid) => `pix_charge.paid:${txid}:PAID`);
  const appliedEffects = async () =>
    (
      await query<{ count: number }>(
        db,
        `SELECT count(*)::int AS count FROM "WebhookEffect" WHERE "eventKey" = ANY($1)`,
        [eventKeys],
      )
    )[0]!.count;
  await expect.poll(appliedEffects, { timeout: 40_000 }).toBe(chargeCount);
  isReading = false;
  await Promise.all(readers);

  // Applied exactly once each, and the mirror shows every charge paid.
  const applied = await query<{ eventKey: string; applied: number; duplicates: number }>(
    db,
    `SELECT "eventKey", count(*) FILTER (WHERE "outcome" = 'APPLIED')::int AS applied,
            count(*) FILTER (WHERE "outcome" = 'DUPLICATE')::int AS duplicates
     FROM "WebhookDelivery" WHERE "eventKey" = ANY($1) GROUP BY "eventKey"`,
    [eventKeys],
  );
  expect(applied).toHaveLength(chargeCount);
  const appliedTwice = applied.filter((row) => row.applied !== 1);
  expect(appliedTwice).toEqual([]);
  const [paid] = await query<{ count: number }>(
    db,
    `SELECT count(*)::int AS count FROM "PixCharge" WHERE "txid" = ANY($1) AND "status" = 'PAID'`,
    [txids],
  );
  expect(paid!.count).toBe(chargeCount);

  // Every attempt the dashboard acknowledged with a 2xx was stored (one delivery id across retries).
  const attempts = (await deliveryAttempts(sandboxClient)).filter((attempt) => !seenBefore.has(attempt.deliveryId));
  const deliveryIds = new Set(attempts.map((attempt) => attempt.deliveryId));
  expect(deliveryIds.size).toBe(chargeCount);
  const acknowledged = attempts.filter((attempt) => attempt.outcome === "delivered");
  expect(new Set(acknowledged.map((attempt) => attempt.deliveryId)).size).toBe(chargeCount);
  const stored = await query<{ deliveryId: string }>(
    db,
    `SELECT DISTINCT "deliveryId" FROM "WebhookDelivery" WHERE "deliveryId" = ANY($1)`,
    [acknowledged.map((attempt) => attempt.deliveryId)],
  );
  expect(stored).toHaveLength(new Set(acknowledged.map((attempt) => attempt.deliveryId)).size);
  const failedAttempts = attempts.filter((attempt) => attempt.outcome === "retry" || attempt.outcome === "discarded");

  // Reads are idempotent: nginx passes one that met the dead instance on to the live one. Only an answer the dead
  // instance had begun to send is lost (nginx cannot resend half an answer): at most one per reader, at the kill.
  expect(reads.ok).toBeGreaterThan(0);
  expect(reads.failed.length).toBeLessThanOrEqual(readers.length);
  expect(reads.failed.filter((read) => read.at > killedAt + 2_000)).toEqual([]);

  // The launcher starts the killed instance again, as a container platform would.
  await expect
    .poll(
      async () =>
        (await fetch(`${victim.url}/api/health`)
          .then((response) => response.status)
          .catch(() => 0)) === 200,
      { timeout: 30_000 },
    )
    .toBe(true);
  const accessLog = readFileSync(cluster.accessLog).subarray(accessLogBytesBefore).toString("utf8");
  const proxied502 = accessLog.split("\n").filter((line) => / 502 upstream=/.test(line)).length;
  report({
    instances: cluster.instances.length,
    killed: `${victim.name} (SIGKILL)`,
    deliveries: chargeCount,
    "delivery attempts": attempts.length,
    "failed attempts retried": failedAttempts.length,
    "2xx acknowledged and stored": stored.length,
    "applied once": applied.length,
    duplicates: appliedTwice.length,
    "reads ok": reads.ok,
    "reads cut off by the kill": reads.failed.length,
    "502 at the proxy": proxied502,
  });
  await context.close();
});

// As postgres over the replica's socket: pausing replay needs a superuser, which the app's role is not.
function onReplicaAsSuperuser(replica: { url: string; dir: string }, sql: string): void {
  const port = new URL(replica.url).port;
  execFileSync("runuser", ["-u", "postgres", "--", "psql", "-h", replica.dir, "-p", port, "-qAtc", sql], {
    stdio: ["ignore", "ignore", "pipe"],
  });
}

// Reads only: the instances' checks of how far the replica has replayed (own writes, live updates) are counted apart.
const catchUpCheck = "%pg_last_wal_replay_lsn%";

async function replicaStatementCalls(
  replica: pg.Client,
  database: string,
  pattern: string,
  exclude = catchUpCheck,
): Promise<number> {
  const { rows } = await replica.query<{ calls: number }>(
    `SELECT coalesce(sum(s.calls), 0)::int AS calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = $1 AND s.query ILIKE $2 AND s.query NOT ILIKE $3`,
    [database, pattern, exclude],
  );
  return rows[0]!.calls;
}

async function poolerStats(cluster: TClusterState, database: string) {
  const admin = new URL(cluster.poolerUrl);
  admin.pathname = "/pgbouncer";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const stats = await client.query<{ database: string; total_xact_count: string; total_query_count: string }>(
      "SHOW STATS",
    );
    const pools = await client.query<{ database: string; pool_mode: string }>("SHOW POOLS");
    const row = stats.rows.find((each) => each.database === database);
    return {
      transactions: Number(row?.total_xact_count ?? 0),
      queries: Number(row?.total_query_count ?? 0),
      mode: pools.rows.find((each) => each.database === database)?.pool_mode,
    };
  } finally {
    await client.end();
  }
}

test("[CLUSTER] through PgBouncer, lists read the replica, and a person sees their own change at once", async ({
  browser,
  cluster,
  db,
  staffState,
}) => {
  const database = new URL(cluster.databaseUrl).pathname.slice(1);
  const standby = cluster.replica;
  const replica = new pg.Client({ connectionString: standby.url });
  await replica.connect();
  const pooled = await poolerStats(cluster, database);
  // Every test before this one ran through the pooler: the instances and workers have no other way to the data.
  expect(pooled.mode).toBe("transaction");
  expect(pooled.transactions).toBeGreaterThan(100);
  const listReadsBefore = await replicaStatementCalls(replica, database, '%FROM "public"."PixCharge"%');
  const author = await browser.newContext({ baseURL: cluster.proxyUrl, storageState: staffState });
  const other = await browser.newContext({ baseURL: cluster.proxyUrl, storageState: staffState });
  onReplicaAsSuperuser(standby, "SELECT pg_wal_replay_pause()");
  try {
    const page = await author.newPage();
    const txid = await new NewPixChargePage(page).create({ amount: "12,34" });
    const row = (each: Page) => each.getByRole("link", { name: txid, exact: true }).first();
    // Live updates listen on direct connections past the pooler. An instance opens one with its first stream, and
    // the charge page just opened one (an instance restarted by an earlier test has none before).
    await expect
      .poll(async () => {
        const [listener] = await query<{ count: number }>(
          db,
          `SELECT count(*)::int AS count FROM pg_stat_activity
            WHERE datname = $1 AND application_name = 'app_changes_listener' AND query ILIKE 'LISTEN%'`,
          [database],
        );
        return listener!.count;
      })
      .toBeGreaterThanOrEqual(1);
    // The author's list reads the primary: the replica has not replayed their write.
    await page.goto("/pix");
    await expect(row(page)).toBeVisible();
    // Another browser (no change of its own) reads the paused replica, which has not got the charge yet.
    const otherPage = await other.newPage();
    const stream = otherPage.waitForResponse((response) => new URL(response.url()).pathname === "/api/events");
    await otherPage.goto("/pix");
    expect((await stream).status()).toBe(200);
    await expect(otherPage.getByRole("table")).toBeVisible();
    await expect(row(otherPage)).toHaveCount(0);
    expect(await replicaStatementCalls(replica, database, '%FROM "public"."PixCharge"%')).toBeGreaterThan(
      listReadsBefore,
    );
    // A change while the replica is behind: its live update waits for the replica to replay it, so the other
    // browser's open list shows both charges without a reload, read from the replica.
    await markNoReload(otherPage);
    const later = await new NewPixChargePage(page).create({ amount: "43,21" });
    onReplicaAsSuperuser(standby, "SELECT pg_wal_replay_resume()");
    await expect(otherPage.getByRole("link", { name: later, exact: true }).first()).toBeVisible({ timeout: 10_000 });
    await expect(row(otherPage)).toBeVisible();
    await expectNoReload(otherPage);
  } finally {
    onReplicaAsSuperuser(standby, "SELECT pg_wal_replay_resume()");
  }

  const after = await poolerStats(cluster, database);
  const replicaReads = await replicaStatementCalls(replica, database, "%SELECT%");
  const catchUpChecks = await replicaStatementCalls(replica, database, catchUpCheck, "");
  const pixListReads =
    (await replicaStatementCalls(replica, database, '%FROM "public"."PixCharge"%')) - listReadsBefore;
  const [deliveries] = await query<{ applied: number; duplicates: number }>(
    db,
    `SELECT count(*) FILTER (WHERE "outcome" = 'APPLIED')::int AS applied,
            count(*) FILTER (WHERE "outcome" = 'DUPLICATE')::int AS duplicates FROM "WebhookDelivery"`,
  );
  const [jobs] = await query<{ runs: number }>(db, `SELECT count(*)::int AS runs FROM "JobRun"`);
  await replica.end();
  report({
    "pooler mode": after.mode ?? "?",
    "transactions through the pooler": after.transactions,
    "queries through the pooler": after.queries,
    "statements on the replica": replicaReads,
    "Pix list reads on the replica in this test": pixListReads,
    "replay position checks (own writes, live updates)": catchUpChecks,
    "deliveries applied": deliveries!.applied,
    duplicates: deliveries!.duplicates,
    "job runs": jobs!.runs,
    "own change": "shown to its author at once, to another browser's open list by a live update after replay",
  });
  await author.close();
  await other.close();
});
