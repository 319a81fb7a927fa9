-- Alert incidents: one open row per rule and subject (the partial unique index), so two evaluators never open two.
CREATE TABLE "AlertIncident" (
    "id" UUID NOT NULL,
    "ruleKey" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "openedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" TIMESTAMP(3),
    "lastValue" DOUBLE PRECISION NOT NULL,
    "detail" JSONB NOT NULL,
    "lastEvaluatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AlertIncident_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "AlertIncident_openedAt_idx" ON "AlertIncident"("openedAt");
CREATE INDEX "AlertIncident_ruleKey_subject_idx" ON "AlertIncident"("ruleKey", "subject");
CREATE UNIQUE INDEX "AlertIncident_one_open_per_subject" ON "AlertIncident"("ruleKey", "subject") WHERE "resolvedAt" IS NULL;

CREATE TABLE "AlertRuleSetting" (
    "ruleKey" TEXT NOT NULL,
    "thresholds" JSONB NOT NULL,
    "mutedUntil" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedById" UUID,

    CONSTRAINT "AlertRuleSetting_pkey" PRIMARY KEY ("ruleKey")
);

CREATE TABLE "AlertSeen" (
    "userId" UUID NOT NULL,
    "seenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertSeen_pkey" PRIMARY KEY ("userId")
);
