import "server-only";
import type { TAuditActor } from "@/lib/audit/audit-log";
import type { JobTrigger } from "@/lib/generated/prisma/client";

type TJobContext = {
  // Aborted on timeout, runner stop or a lost lease: a long handler should check it between steps.
  signal: AbortSignal;
  runId: string;
  trigger: JobTrigger;
  attempt: number;
  requestedBy: TAuditActor;
};

export type TJobRetryPolicy = {
  // Tries per due run, the first included: 1 means a failure waits for the next scheduled run.
  maxAttempts: number;
  backoffMs: number;
};

export type TJobDefinition = {
  // kebab-case, stable: it is the Job row's key and the i18n key on /jobs.
  name: string;
  // From the end of one run to the next, read when a runner starts; null: runs only when an admin asks.
  intervalMs: () => number | null;
  firstRunDelayMs?: number;
  timeoutMs: number;
  retry: TJobRetryPolicy;
  handler: (context: TJobContext) => Promise<unknown>;
};

export const noRetry: TJobRetryPolicy = { maxAttempts: 1, backoffMs: 0 };

export function defineJob(definition: TJobDefinition): TJobDefinition {
  return definition;
}

export function retryDelayMs(policy: TJobRetryPolicy, attempt: number): number | null {
  if (attempt >= policy.maxAttempts) return null;
  return policy.backoffMs * 2 ** (attempt - 1);
}
