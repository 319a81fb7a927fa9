-- The rollup keeps each overview source's figures by name, so a resource that adds figures needs no new columns.
ALTER TABLE "OverviewDay" ADD COLUMN "figures" JSONB;

UPDATE "OverviewDay" SET "figures" = jsonb_build_object(
  'pix', jsonb_build_array("pixCount", "pixCents"),
  'pixViaLink', jsonb_build_array("pixViaLinkCount", "pixViaLinkCents"),
  'pendingPix', jsonb_build_array("pendingPixCount", "pendingPixCents"),
  'card', jsonb_build_array("cardCount", "cardCents"),
  'cardCancelled', jsonb_build_array("cardCancelledCount", "cardCancelledCents"),
  'cardViaLink', jsonb_build_array("cardViaLinkCount", "cardViaLinkCents"),
  'refundsReturned', jsonb_build_array("refundsReturnedCount", "refundsReturnedCents"),
  'refundsCreated', jsonb_build_array("refundsCreatedCount", "refundsCreatedCents"),
  'refundsProcessing', jsonb_build_array("refundsProcessingCount", "refundsProcessingCents"),
  'link', jsonb_build_array("linkCount", "linkCents"));

ALTER TABLE "OverviewDay" ALTER COLUMN "figures" SET NOT NULL,
DROP COLUMN "pixCount",
DROP COLUMN "pixCents",
DROP COLUMN "pixViaLinkCount",
DROP COLUMN "pixViaLinkCents",
DROP COLUMN "pendingPixCount",
DROP COLUMN "pendingPixCents",
DROP COLUMN "cardCount",
DROP COLUMN "cardCents",
DROP COLUMN "cardCancelledCount",
DROP COLUMN "cardCancelledCents",
DROP COLUMN "cardViaLinkCount",
DROP COLUMN "cardViaLinkCents",
DROP COLUMN "refundsReturnedCount",
DROP COLUMN "refundsReturnedCents",
DROP COLUMN "refundsCreatedCount",
DROP COLUMN "refundsCreatedCents",
DROP COLUMN "refundsProcessingCount",
DROP COLUMN "refundsProcessingCents",
DROP COLUMN "linkCount",
DROP COLUMN "linkCents";
