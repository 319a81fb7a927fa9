-- AlterTable
ALTER TABLE "OverviewDay" ADD COLUMN     "linkCents" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "linkCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "pixViaLinkCents" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "pixViaLinkCount" INTEGER NOT NULL DEFAULT 0;

-- Days written before these columns existed lack the link figures: they are computed again by the next job run
-- (until then they are computed live).
DELETE FROM "OverviewDay";

-- A link paid elsewhere counts on its paidAt day only while no paid charge nor received card payment of it is
-- mirrored, and a charge paid through a link counts on the charge's paidAt day: a change to either side names the
-- other side's day too.
CREATE OR REPLACE FUNCTION "overview_mark_pix_charge_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "OverviewDayChange" ("day")
    SELECT DISTINCT "overview_sp_day"(d) FROM new_rows, LATERAL (VALUES ("paidAt"), ("creationDate")) AS v(d)
     WHERE d IS NOT NULL
    UNION
    SELECT "overview_sp_day"(l."paidAt") FROM new_rows JOIN "PaymentLink" l ON l."pixChargeTxid" = new_rows.txid
     WHERE l."paidAt" IS NOT NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "OverviewDayChange" ("day")
    SELECT DISTINCT "overview_sp_day"(d) FROM old_rows, LATERAL (VALUES ("paidAt"), ("creationDate")) AS v(d)
     WHERE d IS NOT NULL
    UNION
    SELECT "overview_sp_day"(l."paidAt") FROM old_rows JOIN "PaymentLink" l ON l."pixChargeTxid" = old_rows.txid
     WHERE l."paidAt" IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "overview_mark_card_payment_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "OverviewDayChange" ("day")
    SELECT "overview_sp_day"("occurredAt") FROM new_rows
    UNION
    SELECT "overview_sp_day"(l."paidAt") FROM new_rows
      JOIN "PaymentLink" l ON l."linkPaymentUuid" = new_rows."linkPaymentUuid"
     WHERE l."paidAt" IS NOT NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "OverviewDayChange" ("day")
    SELECT "overview_sp_day"("occurredAt") FROM old_rows
    UNION
    SELECT "overview_sp_day"(l."paidAt") FROM old_rows
      JOIN "PaymentLink" l ON l."linkPaymentUuid" = old_rows."linkPaymentUuid"
     WHERE l."paidAt" IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "overview_mark_payment_link_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "OverviewDayChange" ("day")
    SELECT "overview_sp_day"("paidAt") FROM new_rows WHERE "paidAt" IS NOT NULL
    UNION
    SELECT "overview_sp_day"(c."paidAt") FROM new_rows JOIN "PixCharge" c ON c.txid = new_rows."pixChargeTxid"
     WHERE c."paidAt" IS NOT NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "OverviewDayChange" ("day")
    SELECT "overview_sp_day"("paidAt") FROM old_rows WHERE "paidAt" IS NOT NULL
    UNION
    SELECT "overview_sp_day"(c."paidAt") FROM old_rows JOIN "PixCharge" c ON c.txid = old_rows."pixChargeTxid"
     WHERE c."paidAt" IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "PaymentLink_overview_insert" AFTER INSERT ON "PaymentLink" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_payment_link_days"();
CREATE TRIGGER "PaymentLink_overview_update" AFTER UPDATE ON "PaymentLink"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_payment_link_days"();
CREATE TRIGGER "PaymentLink_overview_delete" AFTER DELETE ON "PaymentLink" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_payment_link_days"();

-- Today's days are always computed live, so a write to today's rows names nothing: most writes are today's, and the
-- change log stays small. The refresh only computes days closed for over an hour (lib/overview/rollup.ts), so a
-- write that began before midnight and committed after it is in the snapshot that computes its day.
CREATE FUNCTION "overview_skip_open_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."day" >= (now() AT TIME ZONE 'America/Sao_Paulo')::date THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "OverviewDayChange_closed_days_only" BEFORE INSERT ON "OverviewDayChange"
  FOR EACH ROW EXECUTE FUNCTION "overview_skip_open_days"();
