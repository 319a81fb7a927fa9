-- AlterTable
ALTER TABLE "PaymentLink" ADD COLUMN     "cardClaimUntil" TIMESTAMP(3);
