-- CreateTable
CREATE TABLE "OverviewDay" (
    "day" DATE NOT NULL,
    "pixCount" INTEGER NOT NULL,
    "pixCents" BIGINT NOT NULL,
    "cardCount" INTEGER NOT NULL,
    "cardCents" BIGINT NOT NULL,
    "cardCancelledCount" INTEGER NOT NULL,
    "cardCancelledCents" BIGINT NOT NULL,
    "cardViaLinkCount" INTEGER NOT NULL,
    "cardViaLinkCents" BIGINT NOT NULL,
    "refundsReturnedCount" INTEGER NOT NULL,
    "refundsReturnedCents" BIGINT NOT NULL,
    "refundsCreatedCount" INTEGER NOT NULL,
    "refundsCreatedCents" BIGINT NOT NULL,
    "refundsProcessingCount" INTEGER NOT NULL,
    "refundsProcessingCents" BIGINT NOT NULL,
    "pendingPixCount" INTEGER NOT NULL,
    "pendingPixCents" BIGINT NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OverviewDay_pkey" PRIMARY KEY ("day")
);

-- CreateTable
CREATE TABLE "OverviewDayChange" (
    "id" BIGSERIAL NOT NULL,
    "day" DATE NOT NULL,

    CONSTRAINT "OverviewDayChange_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OverviewDayChange_day_idx" ON "OverviewDayChange"("day");

-- Every insert, update and delete of the rows the overview's rollup adds up names the São Paulo days it touches
-- (before and after), so a late refund, webhook or reconciler heal of an old day is never missed, whatever path
-- wrote it. Statement-level with transition tables: a bulk write adds one row per distinct day, not per row.
CREATE FUNCTION "overview_sp_day"(at timestamp) RETURNS date LANGUAGE sql IMMUTABLE AS
$$ SELECT ((at AT TIME ZONE 'UTC') AT TIME ZONE 'America/Sao_Paulo')::date $$;

CREATE FUNCTION "overview_mark_pix_charge_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "OverviewDayChange" ("day")
    SELECT DISTINCT "overview_sp_day"(d) FROM new_rows, LATERAL (VALUES ("paidAt"), ("creationDate")) AS v(d)
     WHERE d IS NOT NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "OverviewDayChange" ("day")
    SELECT DISTINCT "overview_sp_day"(d) FROM old_rows, LATERAL (VALUES ("paidAt"), ("creationDate")) AS v(d)
     WHERE d IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "overview_mark_pix_refund_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "OverviewDayChange" ("day") SELECT DISTINCT "overview_sp_day"("creationDate") FROM new_rows;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "OverviewDayChange" ("day") SELECT DISTINCT "overview_sp_day"("creationDate") FROM old_rows;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION "overview_mark_card_payment_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "OverviewDayChange" ("day") SELECT DISTINCT "overview_sp_day"("occurredAt") FROM new_rows;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "OverviewDayChange" ("day") SELECT DISTINCT "overview_sp_day"("occurredAt") FROM old_rows;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "PixCharge_overview_insert" AFTER INSERT ON "PixCharge" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_pix_charge_days"();
CREATE TRIGGER "PixCharge_overview_update" AFTER UPDATE ON "PixCharge"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_pix_charge_days"();
CREATE TRIGGER "PixCharge_overview_delete" AFTER DELETE ON "PixCharge" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_pix_charge_days"();

CREATE TRIGGER "PixRefund_overview_insert" AFTER INSERT ON "PixRefund" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_pix_refund_days"();
CREATE TRIGGER "PixRefund_overview_update" AFTER UPDATE ON "PixRefund"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_pix_refund_days"();
CREATE TRIGGER "PixRefund_overview_delete" AFTER DELETE ON "PixRefund" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_pix_refund_days"();

CREATE TRIGGER "CardPayment_overview_insert" AFTER INSERT ON "CardPayment" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_card_payment_days"();
CREATE TRIGGER "CardPayment_overview_update" AFTER UPDATE ON "CardPayment"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_card_payment_days"();
CREATE TRIGGER "CardPayment_overview_delete" AFTER DELETE ON "CardPayment" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "overview_mark_card_payment_days"();
