-- CreateEnum
CREATE TYPE "ReconciliationTrigger" AS ENUM ('SCHEDULE', 'MANUAL');

-- CreateEnum
CREATE TYPE "ReconciliationStatus" AS ENUM ('RUNNING', 'SUCCEEDED', 'FAILED');

-- CreateTable
CREATE TABLE "ReconciliationRun" (
    "id" UUID NOT NULL,
    "trigger" "ReconciliationTrigger" NOT NULL,
    "status" "ReconciliationStatus" NOT NULL DEFAULT 'RUNNING',
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "windowFrom" TIMESTAMP(3) NOT NULL,
    "windowTo" TIMESTAMP(3) NOT NULL,
    "chargesScanned" INTEGER NOT NULL DEFAULT 0,
    "refundsScanned" INTEGER NOT NULL DEFAULT 0,
    "healed" JSONB NOT NULL DEFAULT '[]',
    "healedCount" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "actorId" UUID,
    "actorEmail" TEXT,

    CONSTRAINT "ReconciliationRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReconciliationRun_startedAt_idx" ON "ReconciliationRun"("startedAt");
