-- AlterTable
ALTER TABLE "PaymentLink" ADD COLUMN     "pixChargeTxid" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "PaymentLink_pixChargeTxid_key" ON "PaymentLink"("pixChargeTxid");
