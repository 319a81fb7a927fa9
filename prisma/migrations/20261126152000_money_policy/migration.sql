-- CreateEnum
CREATE TYPE "MoneyApprovalKind" AS ENUM ('PIX_REFUND', 'CARD_CANCEL', 'PIX_REFUND_RECOVERY');

-- CreateEnum
CREATE TYPE "MoneyReturnKind" AS ENUM ('PIX_REFUND', 'CARD_CANCEL');

-- AlterTable
ALTER TABLE "RefundApproval" ADD COLUMN     "kind" "MoneyApprovalKind" NOT NULL DEFAULT 'PIX_REFUND',
ADD COLUMN     "paymentId" TEXT,
ADD COLUMN     "reason" TEXT,
ADD COLUMN     "recoveryOfKey" TEXT,
ALTER COLUMN "txid" DROP NOT NULL;

-- CreateTable
CREATE TABLE "MoneyReturn" (
    "id" UUID NOT NULL,
    "kind" "MoneyReturnKind" NOT NULL,
    "resourceId" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "initiatedById" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MoneyReturn_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "MoneyReturn_initiatedById_createdAt_idx" ON "MoneyReturn"("initiatedById", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "MoneyReturn_kind_idempotencyKey_key" ON "MoneyReturn"("kind", "idempotencyKey");

-- CreateIndex
CREATE UNIQUE INDEX "RefundApproval_recoveryOfKey_key" ON "RefundApproval"("recoveryOfKey");
