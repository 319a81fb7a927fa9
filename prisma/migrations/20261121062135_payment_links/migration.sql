-- CreateEnum
CREATE TYPE "PaymentLinkRequestState" AS ENUM ('PENDING', 'DONE', 'FAILED');

-- AlterTable
ALTER TABLE "PaymentLink" ADD COLUMN     "acceptedMethodCodes" INTEGER[],
ADD COLUMN     "createdById" UUID,
ADD COLUMN     "creationDate" TIMESTAMP(3),
ADD COLUMN     "description" TEXT,
ADD COLUMN     "expirationDays" INTEGER,
ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "installmentOptions" JSONB,
ADD COLUMN     "installments" INTEGER,
ADD COLUMN     "isForeignPayer" BOOLEAN,
ADD COLUMN     "linkPaymentId" INTEGER,
ADD COLUMN     "paidAt" TIMESTAMP(3),
ADD COLUMN     "payerDocument" TEXT,
ADD COLUMN     "payerName" TEXT,
ADD COLUMN     "paymentUrl" TEXT,
ADD COLUMN     "userReference" TEXT,
ADD COLUMN     "verificationCode" TEXT;

-- Rows written before this migration (by the link_payment.paid webhook) hold the whole upstream
-- link in "raw": fill the new columns from it, then require them.
UPDATE "PaymentLink" SET
  "linkPaymentId" = ("raw"->>'linkPaymentId')::INTEGER,
  "payerName" = "raw"->>'nomePagador',
  "payerDocument" = CASE WHEN ("raw"->>'isEstrangeiro')::BOOLEAN THEN "raw"->>'numeroInscricao' ELSE regexp_replace("raw"->>'numeroInscricao', '\D', '', 'g') END,
  "isForeignPayer" = ("raw"->>'isEstrangeiro')::BOOLEAN,
  "installments" = ("raw"->>'numeroParcelas')::INTEGER,
  "installmentOptions" = COALESCE((
    SELECT jsonb_agg(jsonb_build_object('installments', (o->>'numberInstallments')::INTEGER, 'amountCents', round((o->>'amountInstallment')::NUMERIC * 100)::INTEGER))
    FROM jsonb_array_elements("raw"->'opcoesParcelamento') AS o
  ), '[]'::JSONB),
  "acceptedMethodCodes" = COALESCE(ARRAY(SELECT (m->>'code')::INTEGER FROM jsonb_array_elements("raw"->'metodosPagamentoAceitos') AS m), '{}'),
  "paymentUrl" = "raw"->>'urlPagamento',
  "verificationCode" = "raw"->>'tokenVerificacao',
  "description" = "raw"->>'descricao',
  "userReference" = "raw"->>'userReference',
  "creationDate" = ("raw"->>'dataCriacao')::TIMESTAMPTZ AT TIME ZONE 'UTC',
  "expirationDays" = ("raw"->>'diasExpiracao')::INTEGER,
  "expiresAt" = (("raw"->>'dataCriacao')::TIMESTAMPTZ + ("raw"->>'diasExpiracao')::INTEGER * INTERVAL '1 day') AT TIME ZONE 'UTC',
  "paidAt" = CASE WHEN "statusCode" = 3 THEN "syncedAt" END;

ALTER TABLE "PaymentLink" ALTER COLUMN "acceptedMethodCodes" SET NOT NULL,
ALTER COLUMN "creationDate" SET NOT NULL,
ALTER COLUMN "expirationDays" SET NOT NULL,
ALTER COLUMN "expiresAt" SET NOT NULL,
ALTER COLUMN "installmentOptions" SET NOT NULL,
ALTER COLUMN "installments" SET NOT NULL,
ALTER COLUMN "isForeignPayer" SET NOT NULL,
ALTER COLUMN "linkPaymentId" SET NOT NULL,
ALTER COLUMN "payerDocument" SET NOT NULL,
ALTER COLUMN "payerName" SET NOT NULL,
ALTER COLUMN "paymentUrl" SET NOT NULL,
ALTER COLUMN "verificationCode" SET NOT NULL;

-- CreateTable
CREATE TABLE "PaymentLinkRequest" (
    "idempotencyKey" UUID NOT NULL,
    "state" "PaymentLinkRequestState" NOT NULL DEFAULT 'PENDING',
    "linkPaymentUuid" TEXT,
    "createdById" UUID,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PaymentLinkRequest_pkey" PRIMARY KEY ("idempotencyKey")
);

-- CreateIndex
CREATE INDEX "PaymentLink_creationDate_idx" ON "PaymentLink"("creationDate");

-- CreateIndex
CREATE INDEX "PaymentLink_statusCode_creationDate_idx" ON "PaymentLink"("statusCode", "creationDate");

-- CreateIndex
CREATE INDEX "PaymentLink_payerDocument_idx" ON "PaymentLink"("payerDocument");

-- CreateIndex
CREATE INDEX "PaymentLink_userReference_idx" ON "PaymentLink"("userReference");

-- CreateIndex
CREATE INDEX "PaymentLink_paymentReceipt_idx" ON "PaymentLink"("paymentReceipt");

-- CreateIndex
CREATE INDEX "PaymentLink_paidMethodCode_idx" ON "PaymentLink"("paidMethodCode");

-- AddForeignKey
ALTER TABLE "PaymentLink" ADD CONSTRAINT "PaymentLink_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaymentLinkRequest" ADD CONSTRAINT "PaymentLinkRequest_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
