import { parseArgs } from "node:util";
import { Agent, request } from "undici";
import { clientTls, startSandbox, type TSandbox, testCertsDir } from "../test/harness";

// `npm run bench:sandbox [-- --duration 5 --connections 32 --url https://127.0.0.1:8443 --certs .data/certs]`
// Keep-alive mTLS load on read-charge and create-charge; prints req/s and p50/p99 latency.
// Without --url it starts its own sandbox (temporary data dir) and stops it afterwards.
const floors = { "read-charge": 2_000, "create-charge": 300 } as const;

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "32" },
    url: { type: "string" },
    certs: { type: "string" },
    client: { type: "string", default: "merchant" },
    strict: { type: "boolean", default: false },
  },
});
const durationMs = Number(values.duration) * 1000;
const connections = Number(values.connections);

let sandbox: TSandbox | undefined;
let baseUrl = values.url;
let certsDir = values.certs ?? testCertsDir;
if (!baseUrl) {
  sandbox = await startSandbox();
  baseUrl = sandbox.baseUrl;
  certsDir = sandbox.certsDir;
}

const agent = new Agent({
  connect: clientTls(certsDir, values.client),
  connections,
  keepAliveTimeout: 60_000,
  pipelining: 1,
});

async function call(method: "GET" | "POST", path: string, body?: string): Promise<{ status: number; text: string }> {
  const response = await request(`${baseUrl}${path}`, {
    method,
    dispatcher: agent,
    headers: body ? { "content-type": "application/json" } : {},
    body,
  });
  return { status: response.statusCode, text: await response.body.text() };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Keeps `connections` requests in flight for the duration; every one must answer `expectedStatus`. */
async function run(name: keyof typeof floors, expectedStatus: number, next: () => Promise<{ status: number }>) {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const { status } = await next();
        latencies.push(performance.now() - t0);
        if (status !== expectedStatus) failures += 1;
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const rps = latencies.length / elapsedS;
  return {
    name,
    requests: latencies.length,
    failures,
    rps,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    floor: floors[name],
  };
}

const createBody = JSON.stringify({
  amount: 123.45,
  expiration: 3600,
  description: "bench",
  debtor: { name: "Fulano de Tal", naturalPersonIdentification: "52998224725" },
});

try {
  // Warm up connections and JIT, and make charges to read.
  const txids: string[] = [];
  for (let i = 0; i < 50; i += 1) {
    const created = await call("POST", "/api/v1/pix-charges", createBody);
    if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.text}`);
    txids.push((JSON.parse(created.text) as { txid: string }).txid);
  }
  let i = 0;
  const results = [
    await run("read-charge", 200, () => call("GET", `/api/v1/pix-charges/${txids[i++ % txids.length]}`)),
    await run("create-charge", 201, () => call("POST", "/api/v1/pix-charges", createBody)),
  ];
  console.log(
    `sandbox benchmark: ${connections} keep-alive mTLS connections, ${durationMs / 1000}s per scenario, ${baseUrl}`,
  );
  for (const r of results) {
    const verdict = r.failures === 0 && r.rps >= r.floor ? "ok" : "BELOW FLOOR";
    console.log(
      `${r.name.padEnd(14)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  ` +
        `(${r.requests} requests, ${r.failures} failed; floor ${r.floor} req/s: ${verdict})`,
    );
  }
  if (values.strict && results.some((r) => r.failures > 0 || r.rps < r.floor)) process.exitCode = 1;
} finally {
  await agent.close();
  await sandbox?.stop();
}
