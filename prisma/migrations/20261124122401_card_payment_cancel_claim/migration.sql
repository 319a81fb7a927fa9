-- AlterTable
ALTER TABLE "CardPayment" ADD COLUMN     "cancelClaimUntil" TIMESTAMP(3);
