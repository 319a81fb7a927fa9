-- DropIndex
DROP INDEX "PixCharge_paidAt_idx";

-- CreateIndex
CREATE INDEX "PixCharge_paidAt_status_paidAmountCents_amountCents_txid_idx" ON "PixCharge"("paidAt", "status", "paidAmountCents", "amountCents", "txid");
