-- CreateEnum
CREATE TYPE "AdminChangeKind" AS ENUM ('CREATE_ADMIN', 'PROMOTE_TO_ADMIN', 'RESET_PASSWORD', 'RESET_TWO_FACTOR', 'LOOSEN_MONEY_SETTING');

-- CreateEnum
CREATE TYPE "AdminChangeStatus" AS ENUM ('PENDING', 'APPROVED', 'REJECTED', 'EXPIRED');

-- AlterTable
ALTER TABLE "RateLimitBucket" ADD COLUMN     "lastHitAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "SessionActivity" (
    "id" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "lastSeenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SessionActivity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PendingAdminChange" (
    "id" UUID NOT NULL,
    "kind" "AdminChangeKind" NOT NULL,
    "status" "AdminChangeStatus" NOT NULL DEFAULT 'PENDING',
    "payload" JSONB NOT NULL,
    "targetUserId" UUID,
    "requestedById" UUID NOT NULL,
    "decidedById" UUID,
    "decidedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PendingAdminChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SessionActivity_lastSeenAt_idx" ON "SessionActivity"("lastSeenAt");

-- CreateIndex
CREATE INDEX "PendingAdminChange_status_createdAt_idx" ON "PendingAdminChange"("status", "createdAt");

-- AddForeignKey
ALTER TABLE "SessionActivity" ADD CONSTRAINT "SessionActivity_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PendingAdminChange" ADD CONSTRAINT "PendingAdminChange_targetUserId_fkey" FOREIGN KEY ("targetUserId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PendingAdminChange" ADD CONSTRAINT "PendingAdminChange_requestedById_fkey" FOREIGN KEY ("requestedById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PendingAdminChange" ADD CONSTRAINT "PendingAdminChange_decidedById_fkey" FOREIGN KEY ("decidedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
