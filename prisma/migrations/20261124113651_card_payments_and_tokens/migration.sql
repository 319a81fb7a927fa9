-- CreateEnum
CREATE TYPE "CardPaymentOrigin" AS ENUM ('TERMINAL', 'LINK', 'POS', 'GATEWAY');

-- CreateTable
CREATE TABLE "CardPayment" (
    "id" TEXT NOT NULL,
    "orderId" TEXT,
    "status" TEXT NOT NULL,
    "responseCode" TEXT NOT NULL,
    "responseMessage" TEXT NOT NULL,
    "isApproved" BOOLEAN NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "cancelledCents" INTEGER NOT NULL DEFAULT 0,
    "cancelledAt" TIMESTAMP(3),
    "paymentType" TEXT,
    "brandCode" TEXT,
    "cardBin" TEXT,
    "cardLastFour" TEXT,
    "cardToken" TEXT,
    "installmentCount" INTEGER NOT NULL DEFAULT 1,
    "installmentType" TEXT,
    "authorizationCode" TEXT,
    "authorizerMessage" TEXT,
    "authorizationNumber" TEXT,
    "acquirerTransactionId" TEXT,
    "acquirerCode" TEXT,
    "acquirerName" TEXT,
    "merchantUsn" TEXT,
    "ecommerceGatewayUsn" TEXT,
    "gatewayUsn" TEXT,
    "hostUsn" TEXT,
    "issuer" TEXT,
    "authorizerMerchantId" TEXT,
    "terminalId" TEXT,
    "recurrenceId" TEXT,
    "merchantAdviceCode" TEXT,
    "authorizedAt" TIMESTAMP(3),
    "paidAt" TIMESTAMP(3),
    "occurredAt" TIMESTAMP(3) NOT NULL,
    "customerReceipt" TEXT,
    "merchantReceipt" TEXT,
    "cancellation" JSONB,
    "origin" "CardPaymentOrigin" NOT NULL,
    "linkPaymentUuid" TEXT,
    "raw" JSONB NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL,
    "createdById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CardPayment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardPaymentInstallment" (
    "id" TEXT NOT NULL,
    "paymentId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "dueDate" TEXT NOT NULL,

    CONSTRAINT "CardPaymentInstallment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardToken" (
    "token" TEXT NOT NULL,
    "gatewayId" TEXT,
    "status" TEXT NOT NULL,
    "brandCode" TEXT NOT NULL,
    "bin" TEXT NOT NULL,
    "lastFour" TEXT NOT NULL,
    "expiry" TEXT NOT NULL,
    "customerId" TEXT,
    "clientId" TEXT,
    "createdAtGateway" TIMESTAMP(3),
    "modifiedAtGateway" TIMESTAMP(3),
    "raw" JSONB NOT NULL,
    "syncedAt" TIMESTAMP(3) NOT NULL,
    "createdById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CardToken_pkey" PRIMARY KEY ("token")
);

-- CreateIndex
CREATE INDEX "CardPayment_occurredAt_idx" ON "CardPayment"("occurredAt");

-- CreateIndex
CREATE INDEX "CardPayment_status_occurredAt_idx" ON "CardPayment"("status", "occurredAt");

-- CreateIndex
CREATE INDEX "CardPayment_brandCode_occurredAt_idx" ON "CardPayment"("brandCode", "occurredAt");

-- CreateIndex
CREATE INDEX "CardPayment_paymentType_occurredAt_idx" ON "CardPayment"("paymentType", "occurredAt");

-- CreateIndex
CREATE INDEX "CardPayment_amountCents_idx" ON "CardPayment"("amountCents");

-- CreateIndex
CREATE INDEX "CardPayment_orderId_idx" ON "CardPayment"("orderId");

-- CreateIndex
CREATE INDEX "CardPayment_cardLastFour_idx" ON "CardPayment"("cardLastFour");

-- CreateIndex
CREATE INDEX "CardPayment_linkPaymentUuid_idx" ON "CardPayment"("linkPaymentUuid");

-- CreateIndex
CREATE INDEX "CardPayment_origin_occurredAt_idx" ON "CardPayment"("origin", "occurredAt");

-- CreateIndex
CREATE UNIQUE INDEX "CardPaymentInstallment_paymentId_number_key" ON "CardPaymentInstallment"("paymentId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "CardToken_gatewayId_key" ON "CardToken"("gatewayId");

-- CreateIndex
CREATE INDEX "CardToken_status_idx" ON "CardToken"("status");

-- CreateIndex
CREATE INDEX "CardToken_brandCode_idx" ON "CardToken"("brandCode");

-- CreateIndex
CREATE INDEX "CardToken_customerId_idx" ON "CardToken"("customerId");

-- CreateIndex
CREATE INDEX "CardToken_lastFour_idx" ON "CardToken"("lastFour");

-- CreateIndex
CREATE INDEX "CardToken_createdAtGateway_idx" ON "CardToken"("createdAtGateway");

-- AddForeignKey
ALTER TABLE "CardPayment" ADD CONSTRAINT "CardPayment_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardPaymentInstallment" ADD CONSTRAINT "CardPaymentInstallment_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "CardPayment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardToken" ADD CONSTRAINT "CardToken_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
