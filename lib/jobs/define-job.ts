import "server-only";
import type { TAuditActor } from "@/lib/audit/audit-log";
import type { JobTrigger } from "@/lib/generated/prisma/client";

export type TJobContext = {
  // Aborted when the run times out, the runner stops, or another runner took the lease over:
  // a long handler should check it between steps.
  signal: AbortSignal;
  runId: string;
  trigger: JobTrigger;
  // 1 for a first try, 2 for its first retry, and so on.
  attempt: number;
  // The admin who pressed "run now" (MANUAL runs only).
  requestedBy: TAuditActor;
};

export type TJobRetryPolicy = {
  // Tries per due run, the first included: 1 means a failure waits for the next scheduled run.
  maxAttempts: number;
  // Wait before the first retry; each further retry waits twice as long.
  backoffMs: number;
};

export type TJobDefinition = {
  // kebab-case, stable: it is the Job row's key and the i18n key on /jobs.
  name: string;
  // Milliseconds from the end of one run to the next, read when a runner starts (environment
  // variables live here); null: no schedule, the job runs only when an admin asks.
  intervalMs: () => number | null;
  // Delay of the first run after a start when the job has never run.
  firstRunDelayMs?: number;
  timeoutMs: number;
  retry: TJobRetryPolicy;
  // Throws to fail the run; what it returns is logged at debug level.
  handler: (context: TJobContext) => Promise<unknown>;
};

export const noRetry: TJobRetryPolicy = { maxAttempts: 1, backoffMs: 0 };

export function defineJob(definition: TJobDefinition): TJobDefinition {
  return definition;
}

/** The wait before the next run after a failed attempt; null when the policy gives up. */
export function retryDelayMs(policy: TJobRetryPolicy, attempt: number): number | null {
  if (attempt >= policy.maxAttempts) return null;
  return policy.backoffMs * 2 ** (attempt - 1);
}
