-- A drift held for review stays open (healedAt null) until someone heals it; who did is kept without a relation.
ALTER TABLE "MirrorDrift" ADD COLUMN "healedById" UUID,
ADD COLUMN "healedByEmail" TEXT;
