-- CreateEnum
CREATE TYPE "PixChargeRequestState" AS ENUM ('PENDING', 'DONE', 'FAILED');

-- CreateTable
CREATE TABLE "PixCharge" (
    "txid" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "creationDate" TIMESTAMP(3) NOT NULL,
    "expirationSeconds" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "debtorName" TEXT,
    "debtorCpf" TEXT,
    "debtorCnpj" TEXT,
    "description" TEXT,
    "userReference" TEXT,
    "pixCopyAndPaste" TEXT,
    "paidAt" TIMESTAMP(3),
    "payerName" TEXT,
    "payerDocument" TEXT,
    "endToEndId" TEXT,
    "paidAmountCents" INTEGER,
    "devolutionAllowed" BOOLEAN,
    "refundedCents" INTEGER NOT NULL DEFAULT 0,
    "raw" JSONB NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL,
    "createdById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PixCharge_pkey" PRIMARY KEY ("txid")
);

-- CreateTable
CREATE TABLE "PixRefund" (
    "pixRefundId" TEXT NOT NULL,
    "txid" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "statusDescription" TEXT NOT NULL,
    "statusReason" TEXT,
    "description" TEXT,
    "refundEndToEnd" TEXT,
    "creationDate" TIMESTAMP(3) NOT NULL,
    "settlementDate" TIMESTAMP(3),
    "raw" JSONB NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL,
    "requestedById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PixRefund_pkey" PRIMARY KEY ("pixRefundId")
);

-- CreateTable
CREATE TABLE "PixChargeRequest" (
    "idempotencyKey" UUID NOT NULL,
    "state" "PixChargeRequestState" NOT NULL DEFAULT 'PENDING',
    "txid" TEXT,
    "createdById" UUID,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PixChargeRequest_pkey" PRIMARY KEY ("idempotencyKey")
);

-- CreateIndex
CREATE INDEX "PixCharge_creationDate_idx" ON "PixCharge"("creationDate");

-- CreateIndex
CREATE INDEX "PixCharge_status_creationDate_idx" ON "PixCharge"("status", "creationDate");

-- CreateIndex
CREATE INDEX "PixCharge_debtorCpf_idx" ON "PixCharge"("debtorCpf");

-- CreateIndex
CREATE INDEX "PixCharge_debtorCnpj_idx" ON "PixCharge"("debtorCnpj");

-- CreateIndex
CREATE INDEX "PixCharge_userReference_idx" ON "PixCharge"("userReference");

-- CreateIndex
CREATE INDEX "PixRefund_txid_idx" ON "PixRefund"("txid");

-- CreateIndex
CREATE INDEX "PixRefund_creationDate_idx" ON "PixRefund"("creationDate");

-- CreateIndex
CREATE INDEX "PixRefund_statusCode_creationDate_idx" ON "PixRefund"("statusCode", "creationDate");

-- AddForeignKey
ALTER TABLE "PixCharge" ADD CONSTRAINT "PixCharge_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PixRefund" ADD CONSTRAINT "PixRefund_txid_fkey" FOREIGN KEY ("txid") REFERENCES "PixCharge"("txid") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PixRefund" ADD CONSTRAINT "PixRefund_requestedById_fkey" FOREIGN KEY ("requestedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PixChargeRequest" ADD CONSTRAINT "PixChargeRequest_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
