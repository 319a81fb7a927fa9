-- AlterTable
ALTER TABLE "ReconciliationRun" ADD COLUMN     "cardPaymentsScanned" INTEGER NOT NULL DEFAULT 0;
