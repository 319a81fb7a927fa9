-- CreateEnum
CREATE TYPE "PosStatus" AS ENUM ('ACTIVE', 'BLOCKED');

-- CreateEnum
CREATE TYPE "PosMatchStatus" AS ENUM ('PENDING', 'MATCHED', 'MISSING_AT_GATEWAY', 'AMOUNT_MISMATCH');

-- CreateTable
CREATE TABLE "PosApiKey" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "sellerTokenAlgorithm" TEXT,
    "sellerTokenSecretCiphertext" TEXT,
    "sellerTokenPublicKey" TEXT,
    "sellerTokenJwksUrl" TEXT,
    "createdById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PosApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PosSeller" (
    "id" TEXT NOT NULL,
    "tenantId" UUID NOT NULL,
    "reference" TEXT NOT NULL,
    "subEstablishmentRef" TEXT NOT NULL,
    "status" "PosStatus" NOT NULL DEFAULT 'ACTIVE',
    "blockedReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PosSeller_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PosDevice" (
    "posId" TEXT NOT NULL,
    "sellerId" TEXT NOT NULL,
    "tenantId" UUID NOT NULL,
    "status" "PosStatus" NOT NULL DEFAULT 'ACTIVE',
    "blockedReason" TEXT,
    "tlsRegistered" BOOLEAN NOT NULL DEFAULT false,
    "activatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "activatedByKey" UUID,
    "lastConfigAt" TIMESTAMP(3),
    "lastReportAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PosDevice_pkey" PRIMARY KEY ("posId")
);

-- CreateTable
CREATE TABLE "PosTransactionConfig" (
    "id" UUID NOT NULL,
    "sellerId" TEXT,
    "posId" TEXT,
    "empresaGateway" TEXT,
    "enderecoGateway" TEXT,
    "cnpjCpf" TEXT,
    "comExterna" TEXT,
    "tokenRegistroTlsCiphertext" TEXT,
    "cnpjAutomacao" TEXT,
    "cnpjFacilitador" TEXT,
    "logoUrl" TEXT,
    "primaryColor" TEXT,
    "secondaryColor" TEXT,
    "updatedById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PosTransactionConfig_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PosSellerTokenUse" (
    "tenantId" UUID NOT NULL,
    "jti" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PosSellerTokenUse_pkey" PRIMARY KEY ("tenantId","jti")
);

-- CreateTable
CREATE TABLE "PosTransactionReport" (
    "id" UUID NOT NULL,
    "posId" TEXT NOT NULL,
    "sellerId" TEXT NOT NULL,
    "tenantId" UUID NOT NULL,
    "approved" BOOLEAN NOT NULL,
    "codResp" INTEGER NOT NULL,
    "nsuGateway" TEXT NOT NULL,
    "nsuHost" TEXT NOT NULL,
    "cardBrand" TEXT NOT NULL,
    "acquirerNetwork" TEXT NOT NULL,
    "authorizationCode" TEXT NOT NULL,
    "installments" INTEGER NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "matchStatus" "PosMatchStatus" NOT NULL DEFAULT 'PENDING',
    "cardPaymentId" TEXT,
    "matchedAt" TIMESTAMP(3),

    CONSTRAINT "PosTransactionReport_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PosReportConflict" (
    "id" UUID NOT NULL,
    "reportId" UUID NOT NULL,
    "body" JSONB NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PosReportConflict_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PosApiKey_prefix_key" ON "PosApiKey"("prefix");

-- CreateIndex
CREATE UNIQUE INDEX "PosApiKey_keyHash_key" ON "PosApiKey"("keyHash");

-- CreateIndex
CREATE INDEX "PosApiKey_tenantId_idx" ON "PosApiKey"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "PosSeller_tenantId_reference_key" ON "PosSeller"("tenantId", "reference");

-- CreateIndex
CREATE INDEX "PosDevice_sellerId_idx" ON "PosDevice"("sellerId");

-- CreateIndex
CREATE INDEX "PosDevice_tenantId_idx" ON "PosDevice"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "PosTransactionConfig_sellerId_key" ON "PosTransactionConfig"("sellerId");

-- CreateIndex
CREATE UNIQUE INDEX "PosTransactionConfig_posId_key" ON "PosTransactionConfig"("posId");

-- CreateIndex
CREATE INDEX "PosSellerTokenUse_expiresAt_idx" ON "PosSellerTokenUse"("expiresAt");

-- CreateIndex
CREATE INDEX "PosTransactionReport_occurredAt_idx" ON "PosTransactionReport"("occurredAt");

-- CreateIndex
CREATE INDEX "PosTransactionReport_sellerId_occurredAt_idx" ON "PosTransactionReport"("sellerId", "occurredAt");

-- CreateIndex
CREATE INDEX "PosTransactionReport_matchStatus_idx" ON "PosTransactionReport"("matchStatus");

-- CreateIndex
CREATE INDEX "PosTransactionReport_authorizationCode_idx" ON "PosTransactionReport"("authorizationCode");

-- CreateIndex
CREATE INDEX "PosTransactionReport_cardPaymentId_idx" ON "PosTransactionReport"("cardPaymentId");

-- CreateIndex
CREATE UNIQUE INDEX "PosTransactionReport_posId_nsuGateway_key" ON "PosTransactionReport"("posId", "nsuGateway");

-- CreateIndex
CREATE INDEX "PosReportConflict_reportId_idx" ON "PosReportConflict"("reportId");

-- AddForeignKey
ALTER TABLE "PosApiKey" ADD CONSTRAINT "PosApiKey_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PosDevice" ADD CONSTRAINT "PosDevice_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "PosSeller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PosTransactionConfig" ADD CONSTRAINT "PosTransactionConfig_sellerId_fkey" FOREIGN KEY ("sellerId") REFERENCES "PosSeller"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PosTransactionConfig" ADD CONSTRAINT "PosTransactionConfig_posId_fkey" FOREIGN KEY ("posId") REFERENCES "PosDevice"("posId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PosReportConflict" ADD CONSTRAINT "PosReportConflict_reportId_fkey" FOREIGN KEY ("reportId") REFERENCES "PosTransactionReport"("id") ON DELETE CASCADE ON UPDATE CASCADE;
