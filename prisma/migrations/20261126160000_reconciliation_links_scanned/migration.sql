-- AlterTable
ALTER TABLE "ReconciliationRun" ADD COLUMN     "paymentLinksScanned" INTEGER NOT NULL DEFAULT 0;
