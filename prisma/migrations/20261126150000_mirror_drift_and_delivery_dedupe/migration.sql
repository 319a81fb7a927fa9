-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "bodySha256" TEXT,
ADD COLUMN     "duplicateOfId" UUID;

-- CreateTable
CREATE TABLE "MirrorDrift" (
    "id" UUID NOT NULL,
    "resourceKind" TEXT NOT NULL,
    "resourceId" TEXT NOT NULL,
    "fields" TEXT[],
    "mirrorValue" JSONB NOT NULL,
    "gatewayValue" JSONB NOT NULL,
    "source" TEXT NOT NULL,
    "detectedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "healedAt" TIMESTAMP(3),

    CONSTRAINT "MirrorDrift_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "MirrorDrift_detectedAt_idx" ON "MirrorDrift"("detectedAt");

-- CreateIndex
CREATE INDEX "MirrorDrift_resourceKind_resourceId_idx" ON "MirrorDrift"("resourceKind", "resourceId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_bodySha256_idx" ON "WebhookDelivery"("bodySha256");
