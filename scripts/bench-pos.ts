import { randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { Agent, request } from "undici";
import { needsBuild } from "@/lib/cli/build-freshness";
import { startService, stopAll, waitForHttp } from "@/lib/cli/processes";
import { applyMigrations } from "@/lib/db/migrate";
import { generatePosApiKey, hashPosApiKey } from "@/lib/pos/api-key-format";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import { cpuProfileOptions, freePort, percentile, runBenchmark } from "./bench-common";
import { buildEmptyNextApp, emptyNextPosPath, type TEmptyNextBuild } from "./bench-empty-next";
import type { TBenchPosClientOptions, TBenchPosPhase, TBenchPosPhaseResult } from "./bench-pos-client";
import { formatMs, type TTiming, time } from "./bench-timing";
import { machineBusyMs, processCpuMs, processGroup } from "./proc-stats";

type Options = {
  connections: number[];
  durationS: number;
  rounds: number;
  warmupS: number;
  repeats: number;
  pdvs: number;
  requests: number;
  port: number | null;
  cpuProfDir: string | null;
};

function readOptions(args: string[]): Options {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const connections = (value("connections") ?? "32").split(",").map(Number);
  if (connections.some((count) => !Number.isInteger(count) || count < 1))
    throw new Error("--connections must be positive integers, e.g. 16,32,64");
  return {
    connections,
    durationS: Number(value("duration") ?? 12),
    rounds: Number(value("rounds") ?? 3),
    warmupS: Number(value("warmup") ?? 5),
    repeats: Number(value("repeats") ?? 0.1),
    pdvs: Number(value("pdvs") ?? 20),
    requests: Number(value("requests") ?? 2000),
    port: value("port") ? Number(value("port")) : null,
    cpuProfDir: value("cpu-prof") ? path.resolve(value("cpu-prof")!) : null,
  };
}

// Far above what the bench sends: the default 50/s per key would answer 429 to nearly all of it.
const benchRateLimit = { POS_RATE_LIMIT_PER_SECOND: "1000000", POS_RATE_LIMIT_BURST: "1000000" };

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(" ");

function timingLine(label: string, timing: Pick<TTiming, "p50" | "p99">, cpuMs?: number): string {
  const cpu = cpuMs === undefined ? "" : `   server CPU ${cpuMs.toFixed(2)} ms/request`;
  return `  ${label.padEnd(58)} p50 ${formatMs(timing.p50)}   p99 ${formatMs(timing.p99)}${cpu}`;
}

function startPosClient(workerData: TBenchPosClientOptions) {
  const worker = new Worker(new URL("./bench-pos-client.ts", import.meta.url), { workerData });
  return {
    run: (phase: TBenchPosPhase) =>
      new Promise<TBenchPosPhaseResult>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
        worker.postMessage(phase);
      }),
    close: () => worker.postMessage(null),
  };
}

type TPhaseFigures = { rate: number; p99: number; cpuMs: number };

// The same reports, connections and durations to an empty Next.js app's /v1/transactions (read the body, 202). It runs
// beside the app for the whole bench, idle while the app is measured: each app phase is followed by one of the floor.
async function startEmptyNext(build: TEmptyNextBuild, clientOptions: TBenchPosClientOptions, options: Options) {
  const port = await freePort();
  // Profiled beside the app when asked, so the two profiles can be compared function by function.
  const server = build.start(port, cpuProfileOptions(options.cpuProfDir, "empty-next"));
  const origin = `http://127.0.0.1:${port}`;
  const client = startPosClient({ ...clientOptions, origin, path: emptyNextPosPath });
  await waitForHttp(server, `${origin}/`);
  const pids = processGroup(server.child.pid!);
  await client.run({ durationMs: options.warmupS * 1000, connections: options.connections[0]! });
  return {
    measure: async (connections: number): Promise<TPhaseFigures & { othersCpuMs: number }> => {
      const cpuBefore = processCpuMs(pids);
      const machineBefore = machineBusyMs();
      const benchBefore = process.cpuUsage();
      const startedAt = performance.now();
      const result = await client.run({ durationMs: options.durationS * 1000, connections });
      const accepted = result.answers["202"] ?? 0;
      const serverCpuMs = processCpuMs(pids) - cpuBefore;
      const bench = process.cpuUsage(benchBefore);
      return {
        // What the rest of the machine used meanwhile (the idle app's timers, autovacuum of the rows it just wrote).
        othersCpuMs: machineBusyMs() - machineBefore - serverCpuMs - (bench.user + bench.system) / 1000,
        rate: accepted / ((performance.now() - startedAt) / 1000),
        p99: percentile(
          result.latencies.sort((a, b) => a - b),
          99,
        ),
        cpuMs: serverCpuMs / result.requests,
      };
    },
    stop: async () => {
      client.close();
      await server.stop();
    },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  if (!existsSync(".next/BUILD_ID"))
    throw new Error("bench:pos runs the real server and needs a production build: run `next build` first.");
  if (needsBuild())
    console.warn("warning: sources changed since the last `next build`: the server runs the older build.");

  const emptyNext = await buildEmptyNextApp();
  const database = await createThrowawayDatabase("payments_bench");
  try {
    await applyMigrations({ kind: "postgres", url: database.url });
    const port = options.port ?? (await freePort());
    const appUrl = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: database.url,
      AUTH_SECRET: randomBytes(32).toString("base64"),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      APP_URL: appUrl,
      PORT: String(port),
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      // No gateway here: no reconciliation or matching job competing for the two cores.
      JOBS_MODE: "off",
      ALLOW_INSECURE_LOCAL_GATEWAY: "1",
      ...benchRateLimit,
    };
    // Set before the app's modules read them (they are imported below, on purpose).
    Object.assign(process.env, env);
    const { db, disconnectDb } = await import("@/lib/db/client");
    const { sealTokenRegistroTls } = await import("@/lib/pos/secrets");

    // One tenant key, one seller with a full configuration (its TLS token sealed, so config decrypts it) and PDVs.
    const { key, prefix } = generatePosApiKey();
    const tenantId = randomUUID();
    await db.posApiKey.create({ data: { tenantId, name: "bench", prefix, keyHash: hashPosApiKey(key) } });
    const sellerId = `sel_bench${randomBytes(6).toString("hex")}`;
    await db.posSeller.create({
      data: { id: sellerId, tenantId, reference: "bench-store", subEstablishmentRef: "SEBENCH0001" },
    });
    await db.posTransactionConfig.create({
      data: {
        sellerId,
        empresaGateway: "BENCH",
        enderecoGateway: "gateway.example:443",
        cnpjCpf: "11222333000181",
        comExterna: "1",
        tokenRegistroTlsCiphertext: sealTokenRegistroTls("bench-tls-token", { sellerId }),
        cnpjAutomacao: "11222333000181",
        cnpjFacilitador: "11222333000181",
      },
    });
    const posIds = Array.from({ length: options.pdvs }, (_, index) => `pos_bench${String(index).padStart(4, "0")}`);
    await db.posDevice.createMany({ data: posIds.map((posId) => ({ posId, sellerId, tenantId })) });

    const nodeOptions = cpuProfileOptions(options.cpuProfDir);
    const server = startService("app", "next", ["start", "--hostname", "127.0.0.1", "--port", String(port)], {
      env: { ...env, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
    });
    await waitForHttp(server, `${appUrl}/api/health`);
    console.log(
      `next start on ${appUrl}, PostgreSQL ${database.name}, ${os.cpus().length} CPUs; JOBS_MODE=off; ` +
        `per-key rate limit raised for the bench: POS_RATE_LIMIT_PER_SECOND=${benchRateLimit.POS_RATE_LIMIT_PER_SECOND} ` +
        `POS_RATE_LIMIT_BURST=${benchRateLimit.POS_RATE_LIMIT_BURST} (default 50/s, bursts of 100)`,
    );

    // Sequential requests on one keep-alive connection.
    const agent = new Agent({ connections: 1 });
    const timing = { requests: options.requests, warmup: Math.min(200, options.requests) };
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await request(`${appUrl}${path}`, { dispatcher: agent, headers });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`GET ${path} answered ${response.statusCode}: ${text}`);
    };
    // The server's CPU per request of a sequential run (warm-up included), beside its latencies.
    const serverPids = processGroup(server.child.pid!);
    const timeWithCpu = async (label: string, call: () => Promise<void>) => {
      const cpuBefore = processCpuMs(serverPids);
      const result = await time(label, timing, call);
      return { ...result, cpuMs: (processCpuMs(serverPids) - cpuBefore) / (timing.requests + timing.warmup) };
    };
    console.log(`\nload average (1, 5, 15 min) at start: ${loadAverage()}`);
    const health = await timeWithCpu("GET /api/health (floor: next start + proxy + SELECT 1)", () =>
      get("/api/health"),
    );

    const clientOptions: TBenchPosClientOptions = {
      origin: appUrl,
      apiKey: key,
      posIds,
      maxConnections: Math.max(...options.connections),
      repeats: options.repeats,
      nsuPrefix: `B${randomBytes(3).toString("hex")}-`,
    };
    const client = startPosClient(clientOptions);
    const runPhase = client.run;
    const backendPids = async () =>
      (
        await db.$queryRaw<{ pid: number }[]>`
          SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`
      ).map((row) => row.pid);

    const warmup = await runPhase({ durationMs: options.warmupS * 1000, connections: options.connections[0]! });
    // Started now and warmed up, then measured right after each app phase: a drift of the host between the app's
    // and the floor's runs would otherwise be read as the app's cost. The ratio is the median of the rounds.
    const emptyNextServer = await startEmptyNext(emptyNext, clientOptions, options);
    console.log(
      `\nPOST /v1/transactions: ${options.pdvs} PDVs of one key, ${Math.round(options.repeats * 100)} % exact repeats, ` +
        `${options.warmupS} s warm-up (${warmup.requests} reports), then per connection count ${options.rounds} ` +
        `rounds of ${options.durationS} s on the app, each followed by ${options.durationS} s on the empty app`,
    );
    let requestsSent = warmup.requests;
    let uniqueSent = warmup.uniqueSent;
    let non202 = Object.entries(warmup.answers).reduce((sum, [status, n]) => sum + (status === "202" ? 0 : n), 0);
    const summaries: { connections: number; rounds: Array<{ app: TPhaseFigures; floor: TPhaseFigures }> }[] = [];
    for (const connections of options.connections) {
      const rounds: Array<{ app: TPhaseFigures; floor: TPhaseFigures }> = [];
      for (let round = 1; round <= options.rounds; round += 1) {
        const postgresPids = await backendPids();
        const serverCpuBefore = processCpuMs(serverPids);
        const postgresCpuBefore = processCpuMs(postgresPids);
        const loadBefore = loadAverage();
        const startedAt = performance.now();
        const result = await runPhase({ durationMs: options.durationS * 1000, connections });
        const seconds = (performance.now() - startedAt) / 1000;
        const serverCpuMs = processCpuMs(serverPids) - serverCpuBefore;
        // The pool may have opened connections during the phase (it closes idle ones while the empty app runs).
        const newPostgresPids = (await backendPids()).filter((pid) => !postgresPids.includes(pid));
        const postgresCpuMs = processCpuMs(postgresPids) - postgresCpuBefore + processCpuMs(newPostgresPids);
        requestsSent += result.requests;
        uniqueSent = result.uniqueSent;
        const latencies = result.latencies.sort((a, b) => a - b);
        const accepted = result.answers["202"] ?? 0;
        const failed = result.requests - accepted;
        non202 += failed;
        const rate = accepted / seconds;
        const p99 = percentile(latencies, 99);
        const perRequest = (ms: number) => `${(ms / result.requests).toFixed(2)} ms`;
        console.log(
          `\n  ${connections} connections, round ${round}: ${result.requests} reports (${result.repeatsSent} repeats) in ${seconds.toFixed(2)} s`,
        );
        console.log(
          `    ${rate.toFixed(0)} reports/s (202)   p50 ${percentile(latencies, 50).toFixed(1)} ms   p99 ${p99.toFixed(1)} ms   max ${latencies.at(-1)!.toFixed(1)} ms   non-202 ${failed}`,
        );
        console.log(
          `    answers: ${Object.entries(result.answers)
            .map(([status, n]) => `${status} ×${n}`)
            .join(", ")}`,
        );
        console.log(
          `    CPU per report: next start ${perRequest(serverCpuMs)}, PostgreSQL backends ${perRequest(postgresCpuMs)}, client ${perRequest(result.cpuMs)}`,
        );
        const floor = await emptyNextServer.measure(connections);
        console.log(
          `    empty app right after: ${floor.rate.toFixed(0)}/s, CPU ${floor.cpuMs.toFixed(2)} ms/request, p99 ${floor.p99.toFixed(1)} ms -> ` +
            `${((rate / floor.rate) * 100).toFixed(1)} %; the rest of the machine used ${(floor.othersCpuMs / 1000).toFixed(2)} s of CPU meanwhile`,
        );
        console.log(`    load average before ${loadBefore}, after ${loadAverage()}`);
        rounds.push({ app: { rate, p99, cpuMs: serverCpuMs / result.requests }, floor });
      }
      summaries.push({ connections, rounds });
    }
    client.close();
    await emptyNextServer.stop();

    const configTiming = await timeWithCpu("GET /v1/transactions/config?posId=", () =>
      get(`/v1/transactions/config?posId=${posIds[Math.floor(Math.random() * posIds.length)]}`, {
        authorization: `Bearer ${key}`,
      }),
    );
    await agent.close();
    await server.stop();
    console.log(
      `\nFRAMEWORK FLOOR: an empty Next.js app (this repo's next, built in this run) whose POST /v1/transactions only ` +
        `parses the body and answers 202, the same client, reports and durations, measured after each app round:`,
    );
    let isFloorGoalMet = true;
    for (const { connections, rounds } of summaries) {
      const share = median(rounds.map(({ app, floor }) => app.rate / floor.rate));
      const extraCpuMs = median(rounds.map(({ app, floor }) => app.cpuMs - floor.cpuMs));
      isFloorGoalMet &&= share >= 0.8 && extraCpuMs <= 0.5;
      const list = (pick: (figures: TPhaseFigures) => string, side: "app" | "floor") =>
        rounds.map((round) => pick(round[side])).join(", ");
      console.log(
        `  ${connections} connections: app ${list((f) => f.rate.toFixed(0), "app")}/s, CPU ${list((f) => f.cpuMs.toFixed(2), "app")} ms/report; ` +
          `empty app ${list((f) => f.rate.toFixed(0), "floor")}/s, CPU ${list((f) => f.cpuMs.toFixed(2), "floor")} ms/request`,
      );
      console.log(
        `    reports/s ÷ framework floor, median of ${rounds.length} rounds = ${(share * 100).toFixed(1)} % (goal ≥ 80 %; ` +
          `rounds ${rounds.map(({ app, floor }) => `${((app.rate / floor.rate) * 100).toFixed(1)} %`).join(", ")}), ` +
          `CPU over the floor ${extraCpuMs.toFixed(2)} ms (goal ≤ 0.5 ms)`,
      );
    }
    console.log(
      `\nSequential requests, one keep-alive connection, ${options.requests} after ${timing.warmup} warm-up:`,
    );
    console.log(timingLine(health.label, health, health.cpuMs));
    console.log(timingLine(configTiming.label, configTiming, configTiming.cpuMs));
    console.log(`  ${"config over the floor".padEnd(58)} p50 ${formatMs(configTiming.p50 - health.p50)}`);

    const [stored, conflicts] = await Promise.all([db.posTransactionReport.count(), db.posReportConflict.count()]);
    const isIdempotent = stored === uniqueSent && conflicts === 0;
    console.log(
      `\nDatabase: ${stored} reports stored for ${uniqueSent} unique NSUs sent (${requestsSent} requests, ${non202} not 202), ` +
        `${conflicts} conflicts -> ${isIdempotent ? "idempotency held" : "NOT idempotent"}`,
    );
    const appPhases = summaries.flatMap(({ connections, rounds }) =>
      rounds.map(({ app }) => ({ connections, ...app })),
    );
    const best = appPhases.reduce((a, b) => (b.rate > a.rate ? b : a));
    const isReportGoalMet = appPhases.some((phase) => phase.rate >= 1000 && phase.p99 < 50);
    console.log(
      `Goal ≥ 1,000 reports/s with p99 < 50 ms: ${isReportGoalMet ? "met" : "NOT met"} ` +
        `(best ${best.rate.toFixed(0)}/s, p99 ${best.p99.toFixed(1)} ms at ${best.connections} connections)`,
    );
    console.log(
      `Goal config p50 < 5 ms: ${configTiming.p50 < 5 ? "met" : "NOT met"} (${configTiming.p50.toFixed(2)} ms)`,
    );
    console.log(`Goal ≥ 80 % of the framework floor, CPU within 0.5 ms of it: ${isFloorGoalMet ? "met" : "NOT met"}`);
    console.log(`load average at the end: ${loadAverage()}`);
    await disconnectDb();
    return isIdempotent && non202 === 0 ? 0 : 1;
  } finally {
    await stopAll();
    emptyNext.remove();
    await database.drop();
  }
}

runBenchmark(main, stopAll);
