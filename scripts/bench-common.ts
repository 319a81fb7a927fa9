// What several benchmarks share: the percentile of sorted samples and a free local port.
import { createServer } from "node:net";

/** The p-th percentile (nearest rank) of samples sorted in ascending order. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A port free on 127.0.0.1 at the time of the call. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
