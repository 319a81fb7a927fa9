-- CreateEnum
CREATE TYPE "WebhookDeliveryOutcome" AS ENUM ('PENDING', 'APPLIED', 'DUPLICATE', 'REJECTED_SIGNATURE', 'STALE', 'FAILED', 'IGNORED');

-- CreateTable
CREATE TABLE "Webhook" (
    "id" UUID NOT NULL,
    "upstreamId" TEXT,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "secretCiphertext" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "upstreamCreatedAt" TIMESTAMP(3),
    "replacesId" UUID,
    "retireAt" TIMESTAMP(3),
    "retiredAt" TIMESTAMP(3),

    CONSTRAINT "Webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" UUID NOT NULL,
    "webhookId" UUID,
    "pathId" TEXT NOT NULL,
    "deliveryId" TEXT,
    "event" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "timestampHeader" TEXT,
    "headers" JSONB NOT NULL,
    "rawBody" BYTEA NOT NULL,
    "signatureValid" BOOLEAN NOT NULL,
    "outcome" "WebhookDeliveryOutcome" NOT NULL,
    "eventKey" TEXT,
    "resourceType" TEXT,
    "resourceId" TEXT,
    "changes" JSONB,
    "error" TEXT,
    "applyAttempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "appliedAt" TIMESTAMP(3),
    "replayOfId" UUID,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEffect" (
    "eventKey" TEXT NOT NULL,
    "firstDeliveryId" UUID NOT NULL,
    "appliedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEffect_pkey" PRIMARY KEY ("eventKey")
);

-- CreateTable
CREATE TABLE "PaymentLink" (
    "linkPaymentUuid" TEXT NOT NULL,
    "statusCode" INTEGER NOT NULL,
    "statusDescription" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "paidMethodCode" INTEGER,
    "paidMethodDescription" TEXT,
    "paymentReceipt" TEXT,
    "transactionId" TEXT,
    "raw" JSONB NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PaymentLink_pkey" PRIMARY KEY ("linkPaymentUuid")
);

-- CreateIndex
CREATE UNIQUE INDEX "Webhook_upstreamId_key" ON "Webhook"("upstreamId");

-- CreateIndex
CREATE INDEX "Webhook_retireAt_idx" ON "Webhook"("retireAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_receivedAt_idx" ON "WebhookDelivery"("receivedAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_event_receivedAt_idx" ON "WebhookDelivery"("event", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_outcome_receivedAt_idx" ON "WebhookDelivery"("outcome", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_resourceId_idx" ON "WebhookDelivery"("resourceId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_deliveryId_idx" ON "WebhookDelivery"("deliveryId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_webhookId_receivedAt_idx" ON "WebhookDelivery"("webhookId", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_outcome_nextAttemptAt_idx" ON "WebhookDelivery"("outcome", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "PaymentLink_statusCode_idx" ON "PaymentLink"("statusCode");

-- AddForeignKey
ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_replacesId_fkey" FOREIGN KEY ("replacesId") REFERENCES "Webhook"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "Webhook"("id") ON DELETE SET NULL ON UPDATE CASCADE;
