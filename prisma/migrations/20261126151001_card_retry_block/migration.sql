-- CreateTable
CREATE TABLE "CardRetryBlock" (
    "id" UUID NOT NULL,
    "orderKey" TEXT NOT NULL,
    "cardBin" TEXT NOT NULL,
    "cardLastFour" TEXT NOT NULL,
    "cardExpiry" TEXT,
    "adviceCode" TEXT NOT NULL,
    "retryAfter" TIMESTAMP(3),
    "paymentId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CardRetryBlock_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CardRetryBlock_orderKey_cardBin_cardLastFour_adviceCode_key" ON "CardRetryBlock"("orderKey", "cardBin", "cardLastFour", "adviceCode");
