-- One whole copy per body: two identical deliveries arriving together could both be stored whole, since the check
-- for an earlier copy ran before either insert. Later whole copies already stored become references to the first.
WITH "ranked" AS (
  SELECT "id", first_value("id") OVER (PARTITION BY "bodySha256" ORDER BY "receivedAt", "id") AS "firstId"
  FROM "WebhookDelivery"
  WHERE "bodySha256" IS NOT NULL AND "duplicateOfId" IS NULL
)
UPDATE "WebhookDelivery" AS d
SET "duplicateOfId" = r."firstId", "rawBody" = ''::bytea, "headers" = '{}'::jsonb
FROM "ranked" AS r
WHERE d."id" = r."id" AND r."id" <> r."firstId";

-- References to a copy that just became a reference point at the first one.
UPDATE "WebhookDelivery" AS d
SET "duplicateOfId" = t."duplicateOfId"
FROM "WebhookDelivery" AS t
WHERE d."duplicateOfId" = t."id" AND t."duplicateOfId" IS NOT NULL;

DROP INDEX "WebhookDelivery_bodySha256_idx";

CREATE UNIQUE INDEX "WebhookDelivery_firstCopyOfBody_key" ON "WebhookDelivery"("bodySha256") WHERE "duplicateOfId" IS NULL;
