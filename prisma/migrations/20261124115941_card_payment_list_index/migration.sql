-- DropIndex
DROP INDEX "CardPayment_occurredAt_idx";

-- CreateIndex
CREATE INDEX "CardPayment_occurredAt_status_isApproved_brandCode_paymentT_idx" ON "CardPayment"("occurredAt", "status", "isApproved", "brandCode", "paymentType", "amountCents");
