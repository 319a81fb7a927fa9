// `npm run bench:webhooks`: signed deliveries (with retries, re-sends) into the receiver on a throw-away PostgreSQL,
// then checked exactly-once (docs/webhooks.md). --mode=server (default) posts through `next start` and measures
// beside it pgbench single-row INSERTs/s, GET /api/health and an empty Next.js app; --mode=in-process uses node:http.
// Options: --events=5000 --connections=48 (16 leaves the server idle a fifth of the time) --duplicates=0.2
// --warmup=1000 --pgbench-seconds=8 --cpu-prof=DIR (the empty app's profile in DIR/empty-next). Goals: ≥ 1,000/s, p99 < 100 ms, ≥ 10 % of pgbench. Deliveries
// read the sandbox gateway's copy, so charges are created and paid there first.
import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Worker } from "node:worker_threads";
import { needsBuild } from "@/lib/cli/build-freshness";
import { startService, stopAll, waitForHttp } from "@/lib/cli/processes";
import { applyMigrations } from "@/lib/db/migrate";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import { startSandbox } from "@/sandbox/test/harness";
import { cpuProfileOptions, freePort, percentile, runBenchmark } from "./bench-common";
import { buildEmptyNextApp, emptyNextRoutePath, type TEmptyNextBuild } from "./bench-empty-next";
import type { TBenchBatch, TBenchBatchResult, TBenchClientOptions, TBenchPost } from "./bench-webhooks-client";
import { processCpuMs, processesRunning, processGroup } from "./proc-stats";

type Options = {
  mode: "server" | "in-process";
  events: number;
  connections: number;
  duplicates: number;
  warmup: number;
  port: number | null;
  pgbenchSeconds: number;
  cpuProfDir: string | null;
};

function readOptions(args: string[]): Options {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const mode = value("mode") ?? "server";
  if (mode !== "in-process" && mode !== "server") throw new Error("--mode must be server or in-process");
  return {
    mode,
    events: Number(value("events") ?? 5000),
    connections: Number(value("connections") ?? 48),
    duplicates: Number(value("duplicates") ?? 0.2),
    warmup: Number(value("warmup") ?? 1000),
    port: value("port") ? Number(value("port")) : null,
    pgbenchSeconds: Number(value("pgbench-seconds") ?? 8),
    cpuProfDir: value("cpu-prof") ? path.resolve(value("cpu-prof")!) : null,
  };
}

// The machine's limit: one-row INSERTs at the same concurrency with no HTTP, JSON or app; measured with the app idle.
async function pgbenchInsertsPerSecond(url: string, clients: number, seconds: number): Promise<number> {
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(
    `CREATE TABLE "bench_scratch" ("id" bigserial PRIMARY KEY, "at" timestamptz NOT NULL DEFAULT now(), "note" text)`,
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-webhooks-"));
  try {
    const script = path.join(dir, "insert.sql");
    writeFileSync(script, `INSERT INTO "bench_scratch" ("note") VALUES ('delivery');\n`);
    const { stdout } = await promisify(execFile)("pgbench", [
      "--no-vacuum",
      `--file=${script}`,
      `--client=${clients}`,
      "--jobs=2",
      `--time=${seconds}`,
      url,
    ]);
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1];
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return Number(tps);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await admin.query(`DROP TABLE "bench_scratch"`);
    await admin.end();
  }
}

type Post = { txid: string; body: Buffer; deliveryId: string };

// The load generator in a worker thread (bench-webhooks-client.ts), so that this thread's CPU is not the client's.
function startLoadClient(clientOptions: TBenchClientOptions) {
  const worker = new Worker(new URL("./bench-webhooks-client.ts", import.meta.url), { workerData: clientOptions });
  return {
    send: (batch: TBenchBatch) =>
      new Promise<TBenchBatchResult>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
        worker.postMessage(batch);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        worker.once("exit", () => resolve());
        worker.postMessage(null);
      }),
  };
}

// The same signed posts, the same connections, to the empty app's route: the framework's own cost per request.
async function measureEmptyNext(
  build: TEmptyNextBuild,
  posts: TBenchPost[],
  connections: number,
  cpuProfDir: string | null,
) {
  const port = await freePort();
  // Profiled beside the receiver when asked, so the two profiles can be compared function by function.
  const server = build.start(port, cpuProfileOptions(cpuProfDir, "empty-next"));
  const origin = `http://127.0.0.1:${port}`;
  const client = startLoadClient({ origin, path: emptyNextRoutePath, connections });
  try {
    await waitForHttp(server, `${origin}${emptyNextRoutePath}`);
    const pids = processGroup(server.child.pid!);
    await client.send({ posts: posts.slice(0, 1000) });
    const cpuBefore = processCpuMs(pids);
    const startedAt = performance.now();
    const result = await client.send({ posts });
    const rate = posts.length / ((performance.now() - startedAt) / 1000);
    const cpuMs = (processCpuMs(pids) - cpuBefore) / posts.length;
    const latencies = result.latencies.sort((a, b) => a - b);
    return { rate, cpuMs, clientCpuMs: result.cpuMs / posts.length, p50: percentile(latencies, 50) };
  } finally {
    await client.close();
    await server.stop();
  }
}

type TTarget = { origin: string; label: string; receiverCpuMs: () => number; close: () => Promise<void> };

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  if (options.mode === "server") {
    if (!existsSync(".next/BUILD_ID"))
      throw new Error("--mode=server runs the real server and needs a production build: run `next build` first.");
    if (needsBuild())
      console.warn("warning: sources changed since the last `next build`: the server runs the older build.");
  }
  const emptyNext = options.mode === "server" ? await buildEmptyNextApp() : null;
  const database = await createThrowawayDatabase("payments_bench");
  const sandbox = await startSandbox();
  try {
    await applyMigrations({ kind: "postgres", url: database.url });
    const port = options.port ?? (await freePort());
    const env = {
      DATABASE_URL: database.url,
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      AUTH_SECRET: process.env.AUTH_SECRET ?? randomBytes(32).toString("base64"),
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      APP_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      // No reconciliation or retry job competing for the two cores.
      JOBS_MODE: "off",
      ALLOW_INSECURE_LOCAL_GATEWAY: "1",
      GATEWAY_BASE_URL: sandbox.baseUrl,
      GATEWAY_CLIENT_CERT_FILE: path.join(sandbox.certsDir, "merchant.pem"),
      GATEWAY_CLIENT_KEY_FILE: path.join(sandbox.certsDir, "merchant-key.pem"),
      GATEWAY_CA_FILE: path.join(sandbox.certsDir, "ca.pem"),
    };
    // Set before the app's modules read them (they are imported below, on purpose).
    Object.assign(process.env, env);
    const { db, disconnectDb } = await import("@/lib/db/client");
    const { sealWebhookSecret } = await import("@/lib/webhooks/secret-box");
    const { paidChargeEvent, signedHeaders } = await import("@/lib/webhooks/testing/fixtures");
    const { createPixCharge } = await import("@/lib/gateway/pix-charges");

    const secret = `whsec_${randomBytes(24).toString("hex")}`;
    const webhookId = randomUUID();
    await db.webhook.create({
      data: {
        id: webhookId,
        url: "http://bench/",
        events: ["pix_charge.paid"],
        secretCiphertext: sealWebhookSecret(secret, webhookId),
      },
    });

    let target: TTarget;
    if (options.mode === "server") {
      const nodeOptions = cpuProfileOptions(options.cpuProfDir);
      const server = startService("app", "next", ["start", "--hostname", "127.0.0.1", "--port", String(port)], {
        env: { ...env, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
      });
      await waitForHttp(server, `${env.APP_URL}/api/health`);
      const serverPids = processGroup(server.child.pid!);
      target = {
        origin: env.APP_URL,
        label: `next start (${env.APP_URL})`,
        receiverCpuMs: () => processCpuMs(serverPids),
        close: () => server.stop(),
      };
    } else {
      const { POST } = await import("@/app/api/webhooks/gateway/[webhookId]/route");
      const { startRouteServer } = await import("@/lib/testing/route-server");
      const server = await startRouteServer("/api/webhooks/gateway/[webhookId]", POST);
      target = {
        origin: server.url,
        label: "in-process route handler over node:http",
        receiverCpuMs: () => {
          const cpu = process.threadCpuUsage();
          return (cpu.user + cpu.system) / 1000;
        },
        close: () => server.close(),
      };
    }

    const client = startLoadClient({
      origin: target.origin,
      path: `/api/webhooks/gateway/${webhookId}`,
      connections: options.connections,
    });
    // Signed now, before the clock starts: the timestamp header must be within 5 minutes of the receiver's.
    const signed = (posts: Post[]) =>
      posts.map((post) => ({
        headers: signedHeaders(secret, post.body, { "x-webhook-delivery": post.deliveryId }),
        body: post.body,
      }));
    const postAll = (posts: Post[]) => client.send({ posts: signed(posts) });

    // Each charge is created and paid at the sandbox before the clock starts (16 at a time).
    const paidAtGateway = async (count: number): Promise<string[]> => {
      const txids: string[] = [];
      const createOne = async () => {
        const charge = await createPixCharge({ amount: 25.9, expiration: 3600 });
        await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
        txids.push(charge.txid);
      };
      for (let start = 0; start < count; start += 16)
        await Promise.all(Array.from({ length: Math.min(16, count - start) }, createOne));
      return txids;
    };
    const newEvent = (txid: string): Post => ({
      txid,
      body: Buffer.from(JSON.stringify(paidChargeEvent(txid))),
      deliveryId: randomUUID(),
    });
    const warmup = (await paidAtGateway(options.warmup)).map(newEvent);
    const unique = (await paidAtGateway(options.events)).map(newEvent);
    // Unpaid in the mirror, paid at the gateway: each paid event takes the one-transaction path.
    const now = new Date();
    const charges = [...warmup, ...unique];
    // Sliced under PostgreSQL's 65,535 parameters: Prisma pipelines a larger createMany, which pg deprecates.
    for (let start = 0; start < charges.length; start += 2_000) {
      await db.pixCharge.createMany({
        data: charges.slice(start, start + 2_000).map(({ txid }) => ({
          txid,
          amountCents: 2590,
          status: "ACTIVE",
          creationDate: now,
          expirationSeconds: 3600,
          expiresAt: new Date(now.getTime() + 3_600_000),
          raw: {},
          syncedAt: now,
        })),
      });
    }
    // Each extra follows its original: half retries (same delivery id), half re-sends (new delivery id).
    const extras = Math.round(options.events * options.duplicates);
    const queue: Post[] = [...unique];
    for (let index = 0; index < extras; index += 1) {
      const original = unique[Math.floor((index / extras) * unique.length)]!;
      queue.splice(Math.min(queue.length, queue.indexOf(original) + options.connections * 2), 0, {
        ...original,
        deliveryId: index % 2 ? randomUUID() : original.deliveryId,
      });
    }

    if (warmup.length > 0) await postAll(warmup);
    const backendPids = (
      await db.$queryRaw<{ pid: number }[]>`
        SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
    ).map((row) => row.pid);
    // The simulated gateway shares the two cores here; a real gateway's reads cost the merchant's machine nothing.
    const sandboxPids = processesRunning("sandbox/main.ts");
    const backendCpuBefore = processCpuMs(backendPids);
    const sandboxCpuBefore = processCpuMs(sandboxPids);
    const receiverCpuBefore = target.receiverCpuMs();
    const loadBefore = os.loadavg()[0]!;
    const startedAt = performance.now();
    const result = await postAll(queue);
    const seconds = (performance.now() - startedAt) / 1000;
    const receiverCpuMs = target.receiverCpuMs() - receiverCpuBefore;
    const backendCpuMs = processCpuMs(backendPids) - backendCpuBefore;
    const sandboxCpuMs = processCpuMs(sandboxPids) - sandboxCpuBefore;
    const loadAfter = os.loadavg()[0]!;

    const latencies = result.latencies.sort((a, b) => a - b);
    const rate = queue.length / seconds;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const perDelivery = (ms: number) => `${(ms / queue.length).toFixed(2)} ms`;
    console.log(
      `receiver, ${target.label}, PostgreSQL, ${options.connections} keep-alive connections, ${os.cpus().length} CPUs`,
    );
    console.log(
      `  ${queue.length} deliveries (${unique.length} events + ${extras} retries/re-sends, after ${warmup.length} warm-up events) in ${seconds.toFixed(2)} s`,
    );
    console.log(
      `  ${rate.toFixed(0)} deliveries/s   p50 ${p50.toFixed(1)} ms   p99 ${p99.toFixed(1)} ms   max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
    console.log(
      `  CPU per delivery: receiver ${perDelivery(receiverCpuMs)}, PostgreSQL backends ${perDelivery(backendCpuMs)}, sandbox gateway ${perDelivery(sandboxCpuMs)}, client ${perDelivery(result.cpuMs)}`,
    );
    console.log(`  machine load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`);
    const isAllAnswered = Object.keys(result.answers).every((key) => key.startsWith("200 "));
    console.log(
      `  answers: ${Object.entries(result.answers)
        .map(([key, count]) => `${key} ×${count}`)
        .join(", ")}`,
    );

    const [effects, applied, paid, unsettled] = await Promise.all([
      db.webhookEffect.count(),
      db.webhookDelivery.groupBy({ by: ["eventKey"], where: { outcome: "APPLIED" }, _count: true }),
      db.pixCharge.count({ where: { status: "PAID" } }),
      db.webhookDelivery.count({ where: { outcome: { in: ["PENDING", "FAILED"] } } }),
    ]);
    const events = warmup.length + unique.length;
    const isExactlyOnce =
      effects === events &&
      applied.length === events &&
      applied.every((group) => group._count === 1) &&
      paid === events &&
      unsettled === 0;
    console.log(
      `  database: ${effects} effects, ${applied.length} events applied (max ${Math.max(...applied.map((group) => group._count))} each), ${paid} charges PAID, ${unsettled} pending/failed → ${isExactlyOnce ? "exactly once" : "NOT exactly once"}`,
    );

    let ratioGoal = true;
    let frameworkGoal = true;
    if (options.mode === "server") {
      // `next start`'s own floor at this concurrency (GET /api/health, one SELECT 1): no route can go faster.
      const floorRequests = Array.from({ length: queue.length }, () => ({ headers: {} }));
      const floorCpuBefore = target.receiverCpuMs();
      const floorStartedAt = performance.now();
      const floor = await client.send({ posts: floorRequests, floorPath: "/api/health" });
      const floorRate = floorRequests.length / ((performance.now() - floorStartedAt) / 1000);
      const floorCpuMs = (target.receiverCpuMs() - floorCpuBefore) / floorRequests.length;
      const floorLatencies = floor.latencies.sort((a, b) => a - b);
      console.log(
        `  FLOOR: next start answering GET /api/health (SELECT 1), same connections: ${floorRate.toFixed(0)} requests/s, p50 ${percentile(floorLatencies, 50).toFixed(1)} ms, CPU ${floorCpuMs.toFixed(2)} ms per request`,
      );
      console.log(`  deliveries/s ÷ floor = ${((rate / floorRate) * 100).toFixed(1)} %`);
      await target.close();
      const framework = await measureEmptyNext(emptyNext!, signed(queue), options.connections, options.cpuProfDir);
      console.log(
        `  FRAMEWORK FLOOR: an empty Next.js app (this repo's next, built in this run) whose one dynamic route only reads its parameter and the body, the same posts and connections: ${framework.rate.toFixed(0)} requests/s, p50 ${framework.p50.toFixed(1)} ms, CPU ${framework.cpuMs.toFixed(2)} ms per request`,
      );
      // Everything on the two cores per request: what bounds the rate once the receiver's own thread is not the limit.
      const machineMs = (receiverCpuMs + backendCpuMs + sandboxCpuMs + result.cpuMs) / queue.length;
      console.log(
        `  CPU on the machine per request: deliveries ${machineMs.toFixed(2)} ms (receiver, PostgreSQL, sandbox, client), empty route ${(framework.cpuMs + framework.clientCpuMs).toFixed(2)} ms (server, client)`,
      );
      const extraCpuMs = receiverCpuMs / queue.length - framework.cpuMs;
      frameworkGoal = rate / framework.rate >= 0.8 && extraCpuMs <= 0.5;
      console.log(
        `  deliveries/s ÷ framework floor = ${((rate / framework.rate) * 100).toFixed(1)} % (goal ≥ 80 %), receiver CPU over the floor ${extraCpuMs.toFixed(2)} ms per delivery (goal ≤ 0.5 ms)`,
      );
      const limit = await pgbenchInsertsPerSecond(database.url, options.connections, options.pgbenchSeconds);
      const ratio = rate / limit;
      ratioGoal = ratio >= 0.1;
      console.log(
        `  LIMIT: pgbench one-row INSERT, -c ${options.connections} -j 2 -T ${options.pgbenchSeconds}, same PostgreSQL: ${limit.toFixed(0)} inserts/s`,
      );
      console.log(
        `  deliveries/s ÷ limit = ${(ratio * 100).toFixed(1)} %   (load average now ${os.loadavg()[0]!.toFixed(1)})`,
      );
      console.log(
        `  10 % of the limit is ${(limit / 10).toFixed(0)}/s; the empty app's route answered ${framework.rate.toFixed(0)}/s: ${framework.rate < limit / 10 ? "above what an empty Next.js route answers on this machine" : "within what an empty Next.js route answers"}`,
      );
    }
    await client.close();
    await target.close();
    const verdict = (isMet: boolean) => (isMet ? "met" : "NOT met");
    const goals = [
      `≥ 1,000/s ${verdict(rate >= 1000)}`,
      `p99 < 100 ms ${verdict(p99 < 100)}`,
      ...(options.mode === "server"
        ? [`≥ 10 % of the limit ${verdict(ratioGoal)}`, `≥ 80 % of the framework floor ${verdict(frameworkGoal)}`]
        : []),
    ];
    console.log(`  goals: ${goals.join(", ")}`);
    await disconnectDb();
    return isExactlyOnce && isAllAnswered ? 0 : 1;
  } finally {
    await stopAll();
    await sandbox.stop();
    emptyNext?.remove();
    await dropWithRetries(database);
  }
}

// After pgbench's inserts an autovacuum worker may be on the database, which the test role cannot end: try again.
async function dropWithRetries(database: { drop: () => Promise<void> }): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await database.drop();
    } catch (error) {
      if (attempt === 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

runBenchmark(main, stopAll);
