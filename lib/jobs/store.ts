import "server-only";
import type { TAuditActor } from "@/lib/audit/audit-log";
import { Prisma, type PrismaClient } from "@/lib/generated/prisma/client";
import type { TJobDefinition } from "./define-job";

// The Job table is the lease (`FOR UPDATE SKIP LOCKED`: two runners never claim one row). Every statement stands
// alone (no transaction), so PGlite's single connection works; times come from the database's clock.

export type TJobsDb = Pick<PrismaClient, "$queryRaw" | "$executeRaw" | "job" | "jobRun">;

export type TClaimedRun = {
  name: string;
  runId: string;
  trigger: "SCHEDULE" | "RETRY" | "MANUAL";
  attempt: number;
  requestedById: string | null;
  requestedByEmail: string | null;
};

const utcNow = Prisma.sql`(now() AT TIME ZONE 'UTC')`;

function after(ms: number): Prisma.Sql {
  return Prisma.sql`(${utcNow} + ${Math.round(ms)}::double precision * interval '1 millisecond')`;
}

const runsKeptPerJob = 50;
const maxErrorLength = 2_000;

export async function syncJob(db: TJobsDb, job: TJobDefinition): Promise<void> {
  const intervalMs = job.intervalMs();
  const first =
    intervalMs === null ? Prisma.sql`NULL::timestamp` : after(Math.min(job.firstRunDelayMs ?? 0, intervalMs));
  const latest = intervalMs === null ? Prisma.sql`NULL::timestamp` : after(intervalMs);
  await db.$executeRaw`
    INSERT INTO "Job" ("name", "nextRunAt") VALUES (${job.name}, ${first})
    ON CONFLICT ("name") DO UPDATE SET "nextRunAt" = CASE
      WHEN ${intervalMs === null} THEN NULL
      WHEN "Job"."nextRunAt" IS NULL THEN EXCLUDED."nextRunAt"
      ELSE LEAST("Job"."nextRunAt", ${latest})
    END`;
}

// A run still RUNNING under an expired lease was abandoned by a runner that died: ABANDONED, a failure.
export async function claimDueJobs(
  db: TJobsDb,
  options: { runnerId: string; names: string[]; busyNames: string[]; limit: number; leaseMs: number },
): Promise<TClaimedRun[]> {
  if (options.names.length === 0 || options.limit <= 0) return [];
  const notBusy =
    options.busyNames.length > 0 ? Prisma.sql`AND "name" NOT IN (${Prisma.join(options.busyNames)})` : Prisma.empty;
  return db.$queryRaw<TClaimedRun[]>`
    WITH due AS (
      SELECT "name", "currentRunId" AS "abandonedRunId", "attempt",
        "runRequestedById"::text AS "requestedById", "runRequestedByEmail" AS "requestedByEmail",
        CASE WHEN "runRequestedAt" IS NOT NULL THEN 'MANUAL' WHEN "attempt" > 0 THEN 'RETRY' ELSE 'SCHEDULE' END
          AS "trigger"
      FROM "Job"
      WHERE "name" IN (${Prisma.join(options.names)}) ${notBusy}
        AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" <= ${utcNow})
        AND ("runRequestedAt" IS NOT NULL OR "nextRunAt" <= ${utcNow})
      ORDER BY COALESCE("runRequestedAt", "nextRunAt")
      LIMIT ${options.limit}
      FOR UPDATE SKIP LOCKED
    ), abandoned AS (
      UPDATE "JobRun" SET "outcome" = 'ABANDONED', "finishedAt" = ${utcNow},
        "error" = 'The runner stopped answering before the run ended (its lease expired).'
      WHERE "id" IN (SELECT "abandonedRunId" FROM due) AND "outcome" = 'RUNNING'
    ), claimed AS (
      UPDATE "Job" AS job SET
        "leaseOwner" = ${options.runnerId},
        "leaseExpiresAt" = ${after(options.leaseMs)},
        "currentRunId" = gen_random_uuid(),
        "runRequestedAt" = NULL,
        "runRequestedById" = NULL,
        "runRequestedByEmail" = NULL,
        "lastStartedAt" = ${utcNow},
        "lastFinishedAt" = NULL,
        "lastOutcome" = 'RUNNING',
        "consecutiveFailures" = job."consecutiveFailures" + CASE WHEN due."abandonedRunId" IS NULL THEN 0 ELSE 1 END
      FROM due
      WHERE job."name" = due."name"
      RETURNING job."name", job."currentRunId", job."lastStartedAt", due."trigger", due."attempt" + 1 AS "attempt",
        due."requestedById", due."requestedByEmail"
    ), inserted AS (
      INSERT INTO "JobRun" ("id", "jobName", "trigger", "attempt", "runnerId", "startedAt")
      SELECT "currentRunId", "name", "trigger"::"JobTrigger", "attempt", ${options.runnerId}, "lastStartedAt"
      FROM claimed
    )
    SELECT "name", "currentRunId"::text AS "runId", "trigger", "attempt", "requestedById", "requestedByEmail"
    FROM claimed`;
}

// False when another runner took the lease over.
export async function renewLease(db: TJobsDb, run: TClaimedRun, leaseMs: number): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE "Job" SET "leaseExpiresAt" = ${after(leaseMs)}
    WHERE "name" = ${run.name} AND "currentRunId" = ${run.runId}::uuid`;
  return updated > 0;
}

export type TRunOutcome = {
  outcome: "SUCCEEDED" | "FAILED" | "ABANDONED";
  error: string | null;
  attempt: number;
  failures: "reset" | "increment" | "keep";
  nextRunInMs: number | null;
  // Keeps the lease this long after a timeout, so a handler that ignores its signal has time to stop.
  holdLeaseMs: number;
};

export async function finishRun(db: TJobsDb, run: TClaimedRun, result: TRunOutcome): Promise<boolean> {
  const error = result.error?.slice(0, maxErrorLength) ?? null;
  const nextRunAt = result.nextRunInMs === null ? Prisma.sql`NULL::timestamp` : after(result.nextRunInMs);
  const leaseExpiresAt = result.holdLeaseMs > 0 ? after(result.holdLeaseMs) : Prisma.sql`NULL::timestamp`;
  const updated = await db.$executeRaw`
    WITH run AS (
      UPDATE "JobRun" SET "outcome" = ${result.outcome}::"JobOutcome", "finishedAt" = ${utcNow}, "error" = ${error}
      WHERE "id" = ${run.runId}::uuid AND "outcome" = 'RUNNING'
    )
    UPDATE "Job" SET
      "leaseOwner" = CASE WHEN ${result.holdLeaseMs > 0} THEN "leaseOwner" END,
      "leaseExpiresAt" = ${leaseExpiresAt},
      "currentRunId" = NULL,
      "lastFinishedAt" = ${utcNow},
      "lastOutcome" = ${result.outcome}::"JobOutcome",
      "lastError" = CASE WHEN ${result.outcome} = 'SUCCEEDED' THEN NULL ELSE COALESCE(${error}, "lastError") END,
      "consecutiveFailures" = CASE ${result.failures}
        WHEN 'reset' THEN 0 WHEN 'increment' THEN "consecutiveFailures" + 1 ELSE "consecutiveFailures" END,
      "attempt" = ${result.attempt},
      "nextRunAt" = ${nextRunAt}
    WHERE "name" = ${run.name} AND "currentRunId" = ${run.runId}::uuid`;
  await db.$executeRaw`
    DELETE FROM "JobRun" WHERE "id" IN (
      SELECT "id" FROM "JobRun" WHERE "jobName" = ${run.name} ORDER BY "startedAt" DESC OFFSET ${runsKeptPerJob}
    )`;
  return updated > 0;
}

export async function requestRun(db: TJobsDb, name: string, actor: TAuditActor): Promise<void> {
  await db.$executeRaw`
    INSERT INTO "Job" ("name", "runRequestedAt", "runRequestedById", "runRequestedByEmail")
    VALUES (${name}, ${utcNow}, ${actor?.id ?? null}::uuid, ${actor?.email ?? null})
    ON CONFLICT ("name") DO UPDATE SET
      "runRequestedAt" = EXCLUDED."runRequestedAt",
      "runRequestedById" = EXCLUDED."runRequestedById",
      "runRequestedByEmail" = EXCLUDED."runRequestedByEmail"`;
}
