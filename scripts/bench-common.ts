// What several benchmarks share: the percentile of sorted samples, a free local port, a throw-away database, and
// how a benchmark's exit code is reported.
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";

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

// The environment is set before `measure` runs because the app's modules read it when first imported, so
// benchmarks import them inside `measure` (and this module imports none at its top: the pay-page bench loads it).
export async function withBenchDatabase(prefix: string, measure: () => Promise<number>): Promise<number> {
  const database = await createThrowawayDatabase(prefix);
  try {
    const { applyMigrations } = await import("@/lib/db/migrate");
    await applyMigrations({ kind: "postgres", url: database.url });
    Object.assign(process.env, {
      DATABASE_URL: database.url,
      AUTH_SECRET: process.env.AUTH_SECRET ?? randomBytes(32).toString("base64"),
      WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY ?? randomBytes(32).toString("base64"),
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    });
    const code = await measure();
    const { disconnectDb } = await import("@/lib/db/client");
    await disconnectDb();
    return code;
  } finally {
    await database.drop();
  }
}

export function runBenchmark(main: () => Promise<number>, cleanUp: () => Promise<unknown> = async () => {}): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      void cleanUp().finally(() => process.exit(1));
    },
  );
}

/** NODE_OPTIONS that profile a server into `dir` (and the empty app beside it, into `dir/empty-next`), or none. */
export function cpuProfileOptions(dir: string | null, sub?: "empty-next"): string | undefined {
  return dir ? `--cpu-prof --cpu-prof-dir=${sub ? `${dir}/${sub}` : dir}` : undefined;
}
