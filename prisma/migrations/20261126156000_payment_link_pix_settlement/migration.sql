-- A link paid by Pix stays CREATED upstream: the Pix settlement is recorded apart from the gateway's status.
ALTER TABLE "PaymentLink" ADD COLUMN "pixPaidTxid" TEXT,
ADD COLUMN "pixPaidEndToEndId" TEXT,
ADD COLUMN "pixPaidAt" TIMESTAMP(3);

-- Links already recorded as paid by Pix (method 2) keep that record.
UPDATE "PaymentLink"
SET "pixPaidTxid" = "paymentReceipt", "pixPaidEndToEndId" = "transactionId", "pixPaidAt" = COALESCE("paidAt", "updatedAt")
WHERE "paidMethodCode" = 2 AND "pixChargeTxid" IS NOT NULL;
