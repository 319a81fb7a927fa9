// The load generator of `npm run bench:webhooks`, in a worker thread so that the main thread's CPU time is the
// receiver's alone.
import { parentPort, workerData } from "node:worker_threads";
import { Pool } from "undici";

export type TBenchPost = { headers: Record<string, string>; body?: Uint8Array };
/** A batch: signed deliveries to the receiver, or (`floor`) plain GETs of another path. */
export type TBenchBatch = { posts: TBenchPost[]; floorPath?: string };
export type TBenchClientOptions = { origin: string; path: string; connections: number };
export type TBenchBatchResult = { latencies: number[]; answers: Record<string, number>; cpuMs: number };

const options = workerData as TBenchClientOptions;
const pool = new Pool(options.origin, { connections: options.connections, pipelining: 1 });

async function post({ posts, floorPath }: TBenchBatch): Promise<TBenchBatchResult> {
  const cpuBefore = process.threadCpuUsage();
  const latencies: number[] = [];
  const answers: Record<string, number> = {};
  let next = 0;
  const connection = async () => {
    while (next < posts.length) {
      const { headers, body } = posts[next++]!;
      const startedAt = performance.now();
      const response = floorPath
        ? await pool.request({ method: "GET", path: floorPath })
        : await pool.request({ method: "POST", path: options.path, headers, body });
      const answer = (await response.body.json()) as { outcome?: string };
      latencies.push(performance.now() - startedAt);
      const key = `${response.statusCode} ${answer.outcome ?? "?"}`;
      answers[key] = (answers[key] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, connection));
  const cpu = process.threadCpuUsage(cpuBefore);
  return { latencies, answers, cpuMs: (cpu.user + cpu.system) / 1000 };
}

parentPort!.on("message", (batch: TBenchBatch | null) => {
  if (batch === null) return void pool.close().then(() => process.exit(0));
  void post(batch).then((result) => parentPort!.postMessage(result));
});
