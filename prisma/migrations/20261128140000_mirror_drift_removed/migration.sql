-- Set when a person removed from the mirror a row the gateway did not know: the item closed that way, not healed.
ALTER TABLE "MirrorDrift" ADD COLUMN "removedFromMirror" BOOLEAN NOT NULL DEFAULT false;
