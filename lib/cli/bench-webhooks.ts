// `npm run bench:webhooks`: sustained signed deliveries into the webhook receiver on PostgreSQL.
// Self-contained: a throw-away PostgreSQL database, one webhook record, and the receiver's route
// handler (`POST` of app/api/webhooks/gateway/[webhookId]/route.ts) served in this process over
// node:http (lib/testing/route-server.ts), so it runs without a production build. Clients post
// over keep-alive connections: every event once, plus gateway-style retries (same delivery id) and
// re-sends (same event, new delivery id). At the end the database must show each event applied
// exactly once. Options: --events=N (default 5000), --connections=N (default 32),
// --duplicates=0.2 (share of extra posts). Goal: ≥ 500 deliveries/s, p99 < 100 ms.
import { randomBytes, randomUUID } from "node:crypto";
import os from "node:os";
import { Pool } from "undici";
import { applyMigrations } from "@/lib/db/migrate";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";

type Options = { events: number; connections: number; duplicates: number };

function readOptions(args: string[]): Options {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  return { events: Number(value("events") ?? 5000), connections: Number(value("connections") ?? 32), duplicates: Number(value("duplicates") ?? 0.2) };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

type Post = { txid: string; body: Buffer; deliveryId: string };

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const database = await createThrowawayDatabase("payments_bench");
  try {
    await applyMigrations({ kind: "postgres", url: database.url });
    // Set before the app's modules read them (they are imported below, on purpose).
    Object.assign(process.env, { DATABASE_URL: database.url, WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"), LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
    const { db, disconnectDb } = await import("@/lib/db/client");
    const { POST } = await import("@/app/api/webhooks/gateway/[webhookId]/route");
    const { startRouteServer } = await import("@/lib/testing/route-server");
    const { sealWebhookSecret } = await import("@/lib/webhooks/secret-box");
    const { paidChargeEvent, signedHeaders } = await import("@/lib/webhooks/testing/fixtures");

    const secret = `whsec_${randomBytes(24).toString("hex")}`;
    const webhookId = randomUUID();
    await db.webhook.create({ data: { id: webhookId, url: "http://bench/", events: ["pix_charge.paid"], secretCiphertext: sealWebhookSecret(secret, webhookId) } });
    const server = await startRouteServer("/api/webhooks/gateway/[webhookId]", POST);
    const pool = new Pool(server.url, { connections: options.connections, pipelining: 1 });

    const unique: Post[] = Array.from({ length: options.events }, (_, index) => {
      const txid = `BENCH${String(index).padStart(8, "0")}${randomBytes(8).toString("hex")}`;
      return { txid, body: Buffer.from(JSON.stringify(paidChargeEvent(txid))), deliveryId: randomUUID() };
    });
    // Extra posts come after their original in the queue: half retries (same delivery id), half
    // re-sends of the event under a new delivery id (as through a second webhook).
    const extras = Math.round(options.events * options.duplicates);
    const queue: Post[] = [...unique];
    for (let index = 0; index < extras; index += 1) {
      const original = unique[Math.floor((index / extras) * unique.length)]!;
      queue.splice(Math.min(queue.length, queue.indexOf(original) + options.connections * 2), 0, { ...original, deliveryId: index % 2 ? randomUUID() : original.deliveryId });
    }

    const latencies: number[] = [];
    const statuses = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < queue.length) {
        const post = queue[next++]!;
        const headers = signedHeaders(secret, post.body, { "x-webhook-delivery": post.deliveryId });
        const startedAt = performance.now();
        const response = await pool.request({ method: "POST", path: `/api/webhooks/gateway/${webhookId}`, headers, body: post.body });
        const answer = (await response.body.json()) as { outcome?: string };
        latencies.push(performance.now() - startedAt);
        const key = `${response.statusCode} ${answer.outcome ?? "?"}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    };
    const startedAt = performance.now();
    const cpuBefore = process.cpuUsage();
    await Promise.all(Array.from({ length: options.connections }, worker));
    const seconds = (performance.now() - startedAt) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    await pool.close();
    await server.close();

    latencies.sort((a, b) => a - b);
    const rate = queue.length / seconds;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log(`receiver, in-process route handler over node:http, PostgreSQL, ${options.connections} connections`);
    console.log(`  ${queue.length} deliveries (${unique.length} events + ${extras} retries/re-sends) in ${seconds.toFixed(2)} s`);
    console.log(`  ${rate.toFixed(0)} deliveries/s   p50 ${p50.toFixed(1)} ms   p99 ${p99.toFixed(1)} ms`);
    // This process holds the benchmark's clients too, so this is an upper bound for the receiver.
    console.log(`  CPU of this process: ${((cpu.user + cpu.system) / 1000 / queue.length).toFixed(2)} ms per delivery (machine load average ${os.loadavg()[0]!.toFixed(1)})`);
    console.log(`  answers: ${[...statuses].map(([key, count]) => `${key} ×${count}`).join(", ")}`);

    // Exactly once, from the database: one effect and one APPLIED delivery per event, every charge
    // paid, nothing left pending or failed.
    const [effects, applied, paid, unsettled] = await Promise.all([
      db.webhookEffect.count(),
      db.webhookDelivery.groupBy({ by: ["eventKey"], where: { outcome: "APPLIED" }, _count: true }),
      db.pixCharge.count({ where: { status: "PAID" } }),
      db.webhookDelivery.count({ where: { outcome: { in: ["PENDING", "FAILED"] } } }),
    ]);
    const isExactlyOnce =
      effects === unique.length && applied.length === unique.length && applied.every((group) => group._count === 1) && paid === unique.length && unsettled === 0;
    console.log(`  database: ${effects} effects, ${applied.length} events applied (max ${Math.max(...applied.map((group) => group._count))} each), ${paid} charges PAID, ${unsettled} pending/failed → ${isExactlyOnce ? "exactly once" : "NOT exactly once"}`);
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
