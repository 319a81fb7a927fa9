-- Gateway calls per operation and minute, added to by every instance, so the health page and the alert rules read
-- latency and error rate from the database with no metrics server.
CREATE TABLE "GatewayCallMinute" (
    "operation" TEXT NOT NULL,
    "minute" TIMESTAMP(3) NOT NULL,
    "calls" INTEGER NOT NULL,
    "failures" INTEGER NOT NULL,
    "clientErrors" INTEGER NOT NULL,
    "durationMsSum" INTEGER NOT NULL,
    "latencyBuckets" INTEGER[],

    CONSTRAINT "GatewayCallMinute_pkey" PRIMARY KEY ("operation","minute")
);

CREATE INDEX "GatewayCallMinute_minute_idx" ON "GatewayCallMinute"("minute");
