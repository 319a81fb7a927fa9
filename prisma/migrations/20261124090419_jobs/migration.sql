-- CreateEnum
CREATE TYPE "JobTrigger" AS ENUM ('SCHEDULE', 'RETRY', 'MANUAL');

-- CreateEnum
CREATE TYPE "JobOutcome" AS ENUM ('RUNNING', 'SUCCEEDED', 'FAILED', 'ABANDONED');

-- CreateTable
CREATE TABLE "Job" (
    "name" TEXT NOT NULL,
    "nextRunAt" TIMESTAMP(3),
    "runRequestedAt" TIMESTAMP(3),
    "runRequestedById" UUID,
    "runRequestedByEmail" TEXT,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "currentRunId" UUID,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
    "lastStartedAt" TIMESTAMP(3),
    "lastFinishedAt" TIMESTAMP(3),
    "lastOutcome" "JobOutcome",
    "lastError" TEXT,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "JobRun" (
    "id" UUID NOT NULL,
    "jobName" TEXT NOT NULL,
    "trigger" "JobTrigger" NOT NULL,
    "attempt" INTEGER NOT NULL,
    "runnerId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "outcome" "JobOutcome" NOT NULL DEFAULT 'RUNNING',
    "error" TEXT,

    CONSTRAINT "JobRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "JobRun_jobName_startedAt_idx" ON "JobRun"("jobName", "startedAt");
