-- One idempotency table for every scope (lib/idempotency), replacing PixChargeRequest and
-- PaymentLinkRequest; their rows are copied over (without fingerprint: they had none).

-- CreateEnum
CREATE TYPE "IdempotencyKeyStatus" AS ENUM ('PENDING', 'SUCCEEDED', 'FAILED');

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT,
    "status" "IdempotencyKeyStatus" NOT NULL DEFAULT 'PENDING',
    "resultId" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "lockedUntil" TIMESTAMP(3) NOT NULL,
    "createdById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("scope","key")
);

-- CreateIndex
CREATE INDEX "IdempotencyKey_scope_resultId_idx" ON "IdempotencyKey"("scope", "resultId");

-- AddForeignKey
ALTER TABLE "IdempotencyKey" ADD CONSTRAINT "IdempotencyKey_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Copy the old rows: DONE → SUCCEEDED; a PENDING or FAILED one (no clear answer upstream) becomes
-- a PENDING key whose lease has run out, which the next attempt with that key recovers.
INSERT INTO "IdempotencyKey" ("scope", "key", "status", "resultId", "error", "lockedUntil", "createdById", "createdAt", "updatedAt")
SELECT 'pix_charge', "idempotencyKey"::text,
  CASE WHEN "state" = 'DONE' THEN 'SUCCEEDED' ELSE 'PENDING' END::"IdempotencyKeyStatus",
  "txid", "error", "updatedAt", "createdById", "createdAt", "updatedAt"
FROM "PixChargeRequest";

INSERT INTO "IdempotencyKey" ("scope", "key", "status", "resultId", "error", "lockedUntil", "createdById", "createdAt", "updatedAt")
SELECT 'payment_link', "idempotencyKey"::text,
  CASE WHEN "state" = 'DONE' THEN 'SUCCEEDED' ELSE 'PENDING' END::"IdempotencyKeyStatus",
  "linkPaymentUuid", "error", "updatedAt", "createdById", "createdAt", "updatedAt"
FROM "PaymentLinkRequest";

-- DropForeignKey
ALTER TABLE "PaymentLinkRequest" DROP CONSTRAINT "PaymentLinkRequest_createdById_fkey";

-- DropForeignKey
ALTER TABLE "PixChargeRequest" DROP CONSTRAINT "PixChargeRequest_createdById_fkey";

-- DropTable
DROP TABLE "PaymentLinkRequest";

-- DropTable
DROP TABLE "PixChargeRequest";

-- DropEnum
DROP TYPE "PaymentLinkRequestState";

-- DropEnum
DROP TYPE "PixChargeRequestState";
