-- One count per reconciled resource kind, keyed by its change kind, instead of one column per kind: a new payment
-- method's pass needs no column.
ALTER TABLE "ReconciliationRun" ADD COLUMN     "scanned" JSONB NOT NULL DEFAULT '{}';

UPDATE "ReconciliationRun"
   SET "scanned" = jsonb_build_object(
         'pix_charge', "chargesScanned",
         'pix_refund', "refundsScanned",
         'payment_link', "paymentLinksScanned",
         'card_payment', "cardPaymentsScanned");

ALTER TABLE "ReconciliationRun" DROP COLUMN "cardPaymentsScanned",
DROP COLUMN "chargesScanned",
DROP COLUMN "paymentLinksScanned",
DROP COLUMN "refundsScanned";
