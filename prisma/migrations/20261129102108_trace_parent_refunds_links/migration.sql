-- Refunds and payment links keep the traceparent of the request that made them, as Pix charges do: their webhooks
-- join that trace.
-- AlterTable
ALTER TABLE "PaymentLink" ADD COLUMN     "traceParent" TEXT;

-- AlterTable
ALTER TABLE "PixRefund" ADD COLUMN     "traceParent" TEXT;
