-- CreateTable
CREATE TABLE "PosTenantTerminal" (
    "terminalId" TEXT NOT NULL,
    "tenantId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" UUID,

    CONSTRAINT "PosTenantTerminal_pkey" PRIMARY KEY ("terminalId")
);

-- CreateIndex
CREATE INDEX "PosTenantTerminal_tenantId_idx" ON "PosTenantTerminal"("tenantId");
