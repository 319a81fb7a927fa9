// The load generator of `npm run bench:pos`, in a worker thread so that it shares no event loop with the main
// thread's bookkeeping. Each connection posts reports back to back for a phase's duration: a new nsuGateway each
// time, except a share of exact repeats of a recent report (some still in flight, so parallel repeats happen too).
import { parentPort, workerData } from "node:worker_threads";
import { Pool } from "undici";

export type TBenchPosClientOptions = {
  origin: string;
  apiKey: string;
  posIds: string[];
  /** The most connections any phase uses. */
  maxConnections: number;
  repeats: number;
  /** Prefix of every nsuGateway, so two runs never share one. */
  nsuPrefix: string;
  /** Another app's route for the same posts (the empty Next.js floor); /v1/transactions by default. */
  path?: string;
};
export type TBenchPosPhase = { durationMs: number; connections: number };
export type TBenchPosPhaseResult = {
  requests: number;
  latencies: number[];
  answers: Record<string, number>;
  /** Unique (posId, nsuGateway) pairs sent since the worker started, this phase included. */
  uniqueSent: number;
  repeatsSent: number;
  cpuMs: number;
};

const options = workerData as TBenchPosClientOptions;
const pool = new Pool(options.origin, { connections: options.maxConnections, pipelining: 1 });
const headers = { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" };

let uniqueSent = 0;
const recent: string[] = [];
const recentSize = 2000;

function nextBody(): { body: string; isRepeat: boolean } {
  if (recent.length > 0 && Math.random() < options.repeats)
    return { body: recent[Math.floor(Math.random() * recent.length)]!, isRepeat: true };
  const index = uniqueSent++;
  const body = JSON.stringify({
    posId: options.posIds[index % options.posIds.length],
    approved: index % 10 !== 0,
    codResp: index % 10 === 0 ? 51 : 0,
    nsuGateway: `${options.nsuPrefix}${index}`,
    nsuHost: String(100_000 + (index % 900_000)),
    cardBrand: index % 2 ? "VISA" : "MASTERCARD",
    acquirerNetwork: "REDE",
    authorizationCode: String(index % 1_000_000).padStart(6, "0"),
    installments: 1 + (index % 3),
    amountInCents: 100 + (index % 50_000),
    occurredAt: new Date().toISOString(),
  });
  if (recent.length < recentSize) recent.push(body);
  else recent[index % recentSize] = body;
  return { body, isRepeat: false };
}

async function run(phase: TBenchPosPhase): Promise<TBenchPosPhaseResult> {
  const cpuBefore = process.threadCpuUsage();
  const deadline = performance.now() + phase.durationMs;
  const latencies: number[] = [];
  const answers: Record<string, number> = {};
  let repeatsSent = 0;
  const count = (key: string) => {
    answers[key] = (answers[key] ?? 0) + 1;
  };
  const connection = async () => {
    while (performance.now() < deadline) {
      const { body, isRepeat } = nextBody();
      if (isRepeat) repeatsSent += 1;
      const startedAt = performance.now();
      try {
        const response = await pool.request({
          method: "POST",
          path: options.path ?? "/v1/transactions",
          headers,
          body,
        });
        await response.body.text();
        latencies.push(performance.now() - startedAt);
        count(String(response.statusCode));
      } catch (error) {
        latencies.push(performance.now() - startedAt);
        count(`error ${(error as Error).name}`);
      }
    }
  };
  await Promise.all(Array.from({ length: phase.connections }, connection));
  const cpu = process.threadCpuUsage(cpuBefore);
  return {
    requests: latencies.length,
    latencies,
    answers,
    uniqueSent,
    repeatsSent,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
}

parentPort!.on("message", (phase: TBenchPosPhase | null) => {
  if (phase === null) return void pool.close().then(() => process.exit(0));
  void run(phase).then((result) => parentPort!.postMessage(result));
});
