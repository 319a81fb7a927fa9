import "server-only";
import { getJobsEnv } from "@/lib/config/jobs-env";
import { db, getDatabaseBackend } from "@/lib/db/client";
import { log } from "@/lib/log";
import { jobRegistry } from "./registry";
import { createJobRunner, type TJobRunner } from "./runner";

// One runner per process: Next.js dev reloads modules, and a second runner would only compete with the first.
const state = globalThis as typeof globalThis & { __paymentsJobRunner?: TJobRunner };

export function getProcessJobRunner(): TJobRunner | undefined {
  return state.__paymentsJobRunner;
}

export async function startProcessJobRunner(): Promise<TJobRunner> {
  if (state.__paymentsJobRunner) return state.__paymentsJobRunner;
  const runner = createJobRunner({ db, jobs: jobRegistry });
  state.__paymentsJobRunner = runner;
  await runner.start();
  return runner;
}

export async function stopProcessJobRunner(graceMs?: number): Promise<void> {
  const runner = state.__paymentsJobRunner;
  state.__paymentsJobRunner = undefined;
  await runner?.stop({ graceMs });
}

// Always on the embedded database, which no worker can open beside the server.
export async function startJobsInWebServer(): Promise<void> {
  const { JOBS_MODE: mode } = getJobsEnv();
  if (mode !== "web") {
    log.info({ mode }, "jobs: this web server runs no jobs (JOBS_MODE)");
    return;
  }
  await startProcessJobRunner();
  log.info({ backend: getDatabaseBackend() }, "jobs: running in the web server");
  // Next.js exits soon after SIGTERM: abandon at once, so the runs are released, not left to their lease.
  process.once("SIGTERM", () => void stopProcessJobRunner(0));
}
