-- Evaluations in a row that found an open incident's condition clear: it resolves only after its rule's quiet count.
ALTER TABLE "AlertIncident" ADD COLUMN "clearEvaluations" INTEGER NOT NULL DEFAULT 0;
