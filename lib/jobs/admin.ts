import "server-only";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { recordAudit } from "@/lib/audit/audit-log";
import { getJobsEnv, type TJobsEnv } from "@/lib/config/jobs-env";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { JobOutcome } from "@/lib/generated/prisma/client";
import { getProcessJobRunner } from "./process-runner";
import { jobRegistry } from "./registry";
import { requestRun } from "./store";

export type TJobAdminRow = {
  name: string;
  intervalMs: number | null;
  isRunning: boolean;
  lastStartedAt: Date | null;
  lastFinishedAt: Date | null;
  lastOutcome: JobOutcome | null;
  lastError: string | null;
  nextRunAt: Date | null;
  consecutiveFailures: number;
  runRequestedAt: Date | null;
  runRequestedByEmail: string | null;
};

export type TJobsOverview = { mode: TJobsEnv["JOBS_MODE"]; jobs: TJobAdminRow[] };

export async function listJobsForAdmin(now: Date = new Date()): Promise<TJobsOverview> {
  const rows = await db.job.findMany({ where: { name: { in: jobRegistry.map((job) => job.name) } } });
  const rowByName = new Map(rows.map((row) => [row.name, row]));
  const jobs = jobRegistry.map((job): TJobAdminRow => {
    const row = rowByName.get(job.name);
    return {
      name: job.name,
      intervalMs: job.intervalMs(),
      isRunning: row?.lastOutcome === "RUNNING" && !!row.leaseExpiresAt && row.leaseExpiresAt > now,
      lastStartedAt: row?.lastStartedAt ?? null,
      lastFinishedAt: row?.lastFinishedAt ?? null,
      lastOutcome: row?.lastOutcome ?? null,
      lastError: row?.lastError ?? null,
      nextRunAt: row?.nextRunAt ?? null,
      consecutiveFailures: row?.consecutiveFailures ?? 0,
      runRequestedAt: row?.runRequestedAt ?? null,
      runRequestedByEmail: row?.runRequestedByEmail ?? null,
    };
  });
  return { mode: getJobsEnv().JOBS_MODE, jobs };
}

export async function requestJobRunNow(name: string, context: TChangeContext): Promise<void> {
  if (!jobRegistry.some((job) => job.name === name)) throw new AppError("NOT_FOUND", "jobs.errors.unknownJob");
  await requestRun(db, name, context.actor);
  await recordAudit({
    actor: context.actor,
    action: "job.run_requested",
    resourceType: "job",
    resourceId: name,
    ip: context.ip,
    userAgent: context.userAgent,
  });
  // A runner in this process takes it at once; another process at its next poll.
  getProcessJobRunner()?.wake();
}
