-- The Pix charge list at a million rows (docs/lists.md): the old date and status + date indexes are prefixes of
-- the new ones, which add the txid tie-breaker (pages and cursors in index order) and the amount (index-only counts).
-- DropIndex
DROP INDEX "PixCharge_creationDate_idx";

-- DropIndex
DROP INDEX "PixCharge_status_creationDate_idx";

-- CreateIndex
CREATE INDEX "PixCharge_creationDate_txid_amountCents_idx" ON "PixCharge"("creationDate", "txid", "amountCents");

-- CreateIndex
CREATE INDEX "PixCharge_status_creationDate_txid_amountCents_idx" ON "PixCharge"("status", "creationDate", "txid", "amountCents");

-- CreateIndex
CREATE INDEX "PixCharge_amountCents_txid_idx" ON "PixCharge"("amountCents", "txid");
