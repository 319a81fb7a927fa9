// `npm run bench:webhooks`: signed deliveries into the receiver's route handler, served in-process on a throw-away
// PostgreSQL database, then checked exactly-once (docs/webhooks.md). Options: --events=5000 --connections=16
// --duplicates=0.2 (share of extra posts) --warmup=500. Goal: ≥ 500 deliveries/s, p99 < 100 ms.
import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import { Worker } from "node:worker_threads";
import { applyMigrations } from "@/lib/db/migrate";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import type { TBenchBatchResult, TBenchClientOptions, TBenchPost } from "./bench-webhooks-client";

type Options = { events: number; connections: number; duplicates: number; warmup: number };

function readOptions(args: string[]): Options {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  return {
    events: Number(value("events") ?? 5000),
    connections: Number(value("connections") ?? 16),
    duplicates: Number(value("duplicates") ?? 0.2),
    warmup: Number(value("warmup") ?? 500),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

// CPU ms from /proc (utime + stime); a process gone meanwhile counts as 0.
const clockTicksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

function processCpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // ended
    }
  }
  return (ticks * 1000) / clockTicksPerSecond;
}

type Post = { txid: string; body: Buffer; deliveryId: string };

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const database = await createThrowawayDatabase("payments_bench");
  try {
    await applyMigrations({ kind: "postgres", url: database.url });
    // Set before the app's modules read them (they are imported below, on purpose).
    Object.assign(process.env, {
      DATABASE_URL: database.url,
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      AUTH_SECRET: process.env.AUTH_SECRET ?? randomBytes(32).toString("base64"),
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    });
    const { db, disconnectDb } = await import("@/lib/db/client");
    const { POST } = await import("@/app/api/webhooks/gateway/[webhookId]/route");
    const { startRouteServer } = await import("@/lib/testing/route-server");
    const { sealWebhookSecret } = await import("@/lib/webhooks/secret-box");
    const { paidChargeEvent, signedHeaders } = await import("@/lib/webhooks/testing/fixtures");

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
    const server = await startRouteServer("/api/webhooks/gateway/[webhookId]", POST);
    const clientOptions: TBenchClientOptions = {
      origin: server.url,
      path: `/api/webhooks/gateway/${webhookId}`,
      connections: options.connections,
    };
    const client = new Worker(new URL("./bench-webhooks-client.ts", import.meta.url), { workerData: clientOptions });
    const postAll = (posts: Post[]) =>
      new Promise<TBenchBatchResult>((resolve, reject) => {
        client.once("message", resolve);
        client.once("error", reject);
        // Signed now: the timestamp header must be within 5 minutes of the receiver's clock.
        const batch: TBenchPost[] = posts.map((post) => ({
          headers: signedHeaders(secret, post.body, { "x-webhook-delivery": post.deliveryId }),
          body: post.body,
        }));
        client.postMessage(batch);
      });

    const newEvent = (prefix: string, index: number): Post => {
      const txid = `${prefix}${String(index).padStart(8, "0")}${randomBytes(8).toString("hex")}`;
      return { txid, body: Buffer.from(JSON.stringify(paidChargeEvent(txid))), deliveryId: randomUUID() };
    };
    const warmup = Array.from({ length: options.warmup }, (_, index) => newEvent("WARM", index));
    const unique = Array.from({ length: options.events }, (_, index) => newEvent("BENCH", index));
    // The charges exist unpaid in the mirror, as when this app created them: their paid events match it and take
    // the one-transaction path (an event the mirror does not confirm is read from the gateway instead).
    const now = new Date();
    await db.pixCharge.createMany({
      data: [...warmup, ...unique].map(({ txid }) => ({
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
      await db.$queryRaw<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`
    ).map((row) => row.pid);
    const backendCpuBefore = processCpuMs(backendPids);
    const receiverCpuBefore = process.threadCpuUsage();
    const loadBefore = os.loadavg()[0]!;
    const startedAt = performance.now();
    const result = await postAll(queue);
    const seconds = (performance.now() - startedAt) / 1000;
    const receiverCpu = process.threadCpuUsage(receiverCpuBefore);
    const backendCpuMs = processCpuMs(backendPids) - backendCpuBefore;
    const loadAfter = os.loadavg()[0]!;
    client.postMessage(null);
    await server.close();

    const latencies = result.latencies.sort((a, b) => a - b);
    const rate = queue.length / seconds;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const perDelivery = (ms: number) => `${(ms / queue.length).toFixed(2)} ms`;
    console.log(
      `receiver, in-process route handler over node:http, PostgreSQL, ${options.connections} connections, ${os.cpus().length} CPUs`,
    );
    console.log(
      `  ${queue.length} deliveries (${unique.length} events + ${extras} retries/re-sends, after ${warmup.length} warm-up events) in ${seconds.toFixed(2)} s`,
    );
    console.log(
      `  ${rate.toFixed(0)} deliveries/s   p50 ${p50.toFixed(1)} ms   p99 ${p99.toFixed(1)} ms   max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
    console.log(
      `  CPU per delivery: receiver ${perDelivery((receiverCpu.user + receiverCpu.system) / 1000)}, PostgreSQL backends ${perDelivery(backendCpuMs)}, clients ${perDelivery(result.cpuMs)}`,
    );
    console.log(`  machine load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`);
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
    const meetsGoal = rate >= 500 && p99 < 100;
    console.log(`  goal ≥ 500/s and p99 < 100 ms: ${meetsGoal ? "met" : "NOT met"}`);
    await disconnectDb();
    return isExactlyOnce ? 0 : 1;
  } finally {
    await database.drop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
