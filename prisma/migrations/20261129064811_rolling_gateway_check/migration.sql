-- The reconciler's rolling check of rows older than its window: when each row was last read by id (null: never).
-- AlterTable
ALTER TABLE "CardPayment" ADD COLUMN     "gatewayCheckedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "PaymentLink" ADD COLUMN     "gatewayCheckedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "PixCharge" ADD COLUMN     "gatewayCheckedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "PixRefund" ADD COLUMN     "gatewayCheckedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "CardPayment_gatewayCheckedAt_idx" ON "CardPayment"("gatewayCheckedAt");

-- CreateIndex
CREATE INDEX "PaymentLink_gatewayCheckedAt_idx" ON "PaymentLink"("gatewayCheckedAt");

-- CreateIndex
CREATE INDEX "PixCharge_gatewayCheckedAt_idx" ON "PixCharge"("gatewayCheckedAt");

-- CreateIndex
CREATE INDEX "PixRefund_gatewayCheckedAt_idx" ON "PixRefund"("gatewayCheckedAt");
