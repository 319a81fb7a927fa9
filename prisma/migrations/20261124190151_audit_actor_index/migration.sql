-- CreateIndex
CREATE INDEX "AuditLog_actorEmail_occurredAt_idx" ON "AuditLog"("actorEmail", "occurredAt");
