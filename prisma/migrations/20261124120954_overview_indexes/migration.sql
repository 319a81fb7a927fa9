-- CreateIndex
CREATE INDEX "PaymentLink_statusCode_paidAt_idx" ON "PaymentLink"("statusCode", "paidAt");

-- CreateIndex
CREATE INDEX "PixCharge_paidAt_idx" ON "PixCharge"("paidAt");
