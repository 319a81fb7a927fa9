-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "bodyBytes" INTEGER,
ADD COLUMN     "remoteIp" TEXT;
