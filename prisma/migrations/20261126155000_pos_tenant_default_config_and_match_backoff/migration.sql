-- AlterTable
ALTER TABLE "PosTransactionConfig" ADD COLUMN     "tenantId" UUID;

-- AlterTable
ALTER TABLE "PosTransactionReport" ADD COLUMN     "missingPasses" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "nextMatchAt" TIMESTAMP(3);

-- CreateIndex
CREATE UNIQUE INDEX "PosTransactionConfig_tenantId_key" ON "PosTransactionConfig"("tenantId");
