import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { createGroupCommit } from "@/lib/db/group-commit";
import { isoUtc, runSql, runSqlForItems } from "@/lib/db/sql";
import { changeChannel, changePayload } from "@/lib/events/bus";
import { log } from "@/lib/log";
import { countPosReport } from "@/lib/telemetry/metrics";
import { withSpan } from "@/lib/telemetry/tracing";
import { forgetPosKey, lastUsedResolutionMs, type TKnownPosKey, type TPosCaller } from "./authenticate";
import { PosApiError, posError, type TPosLogContext } from "./errors";
import { occurredAtBoundsProblem, type TTransactionReport } from "./schemas";
import { posNotFound } from "./transaction-config";

// One statement (ON CONFLICT DO NOTHING); a repeated NSU is compared with the stored report, which a batch reads too.

export type TReportOutcome = "stored" | "duplicate";

type TIngestRow = {
  deviceStatus: string | null;
  sellerStatus: string | null;
  tenantId: string | null;
  insertedId: string | null;
};

// A caller whose key was read on its own (authenticatePosRequest): $2 is its tenant.
const ingestStatement = `
  WITH "device" AS (
    SELECT d."posId", d."sellerId", d."tenantId", d."status" AS "deviceStatus", s."status" AS "sellerStatus"
    FROM "PosDevice" d JOIN "PosSeller" s ON s."id" = d."sellerId"
    WHERE d."posId" = $1::text
  ), "inserted" AS (
    INSERT INTO "PosTransactionReport" ("id", "posId", "sellerId", "tenantId", "approved", "codResp", "nsuGateway",
      "nsuHost", "cardBrand", "acquirerNetwork", "authorizationCode", "installments", "amountCents", "occurredAt",
      "receivedAt")
    SELECT $3::uuid, "posId", "sellerId", "tenantId", $4::boolean, $5::int4, $6::text, $7::text, $8::text, $9::text,
      $10::text, $11::int4, $12::int4, ($13::timestamptz AT TIME ZONE 'UTC'), ($14::timestamptz AT TIME ZONE 'UTC')
    FROM "device"
    WHERE "tenantId" = $2::uuid AND "deviceStatus" = 'ACTIVE' AND "sellerStatus" = 'ACTIVE'
    ON CONFLICT ("posId", "nsuGateway") DO NOTHING
    RETURNING "id"
  ), "touched" AS (
    UPDATE "PosDevice" SET "lastReportAt" = ($14::timestamptz AT TIME ZONE 'UTC')
    WHERE "posId" = (SELECT "posId" FROM "device" WHERE "tenantId" = $2::uuid)
      AND ("lastReportAt" IS NULL OR "lastReportAt" < ($15::timestamptz AT TIME ZONE 'UTC'))
    RETURNING 1
  ), "notified" AS (
    SELECT pg_notify('${changeChannel}', $16::text) FROM "inserted"
  )
  SELECT
  (SELECT "deviceStatus"::text FROM "device") AS "deviceStatus",
  (SELECT "sellerStatus"::text FROM "device") AS "sellerStatus",
  (SELECT "tenantId"::text FROM "device") AS "tenantId",
  (SELECT "id"::text FROM "inserted") AS "insertedId",
  (SELECT count(*) FROM "touched")::int4 AS "touched",
  (SELECT count(*) FROM "notified")::int4 AS "notified"`;

// A row's time column set to the newest "at" of the batch's rows for it, unless already within resolutionMs of it.
const touchNewest = (table: string, key: string, column: string, from: string, resolutionMs: number) => `
    UPDATE "${table}" AS r SET "${column}" = t."at"
    FROM (SELECT "${key}", max("at") AS "at" FROM "${from}" GROUP BY "${key}") AS t
    WHERE r."${key}" = t."${key}" AND (r."${column}" IS NULL OR r."${column}" < t."at" - interval '${resolutionMs} milliseconds')
    RETURNING 1`;

// A known key's reports, a row each: the key's validity at the report's time, its use, a repeat's stored report.
const batchedKeyedIngestStatement = `
  WITH "items" AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS x("index" int4, "keyHash" text, "id" uuid, "posId" text,
      "approved" boolean, "codResp" int4, "nsuGateway" text, "nsuHost" text, "cardBrand" text, "acquirerNetwork" text,
      "authorizationCode" text, "installments" int4, "amountCents" int4, "occurredAt" text, "receivedAt" text,
      "notify" text)
  ), "key" AS (
    SELECT i."index", k."id", k."tenantId", k."prefix",
      (k."revokedAt" IS NOT NULL AND k."revokedAt" <= (i."receivedAt"::timestamptz AT TIME ZONE 'UTC')) AS "isRevoked",
      (k."expiresAt" IS NOT NULL AND k."expiresAt" <= (i."receivedAt"::timestamptz AT TIME ZONE 'UTC')) AS "isExpired"
    FROM "items" AS i JOIN "PosApiKey" AS k ON k."keyHash" = i."keyHash"
  ), "caller" AS (
    SELECT k."index", k."id", k."tenantId", (i."receivedAt"::timestamptz AT TIME ZONE 'UTC') AS "at"
    FROM "key" AS k JOIN "items" AS i USING ("index") WHERE NOT k."isRevoked" AND NOT k."isExpired"
  ), "keyTouched" AS (${touchNewest("PosApiKey", "id", "lastUsedAt", "caller", lastUsedResolutionMs)}
  ), "device" AS (
    SELECT i."index", d."posId", d."sellerId", d."tenantId", d."status" AS "deviceStatus", s."status" AS "sellerStatus"
    FROM "items" AS i JOIN "PosDevice" AS d ON d."posId" = i."posId" JOIN "PosSeller" AS s ON s."id" = d."sellerId"
  ), "callerDevice" AS (
    SELECT d.*, c."at" FROM "device" AS d JOIN "caller" AS c USING ("index") WHERE d."tenantId" = c."tenantId"
  ), "inserted" AS (
    INSERT INTO "PosTransactionReport" ("id", "posId", "sellerId", "tenantId", "approved", "codResp", "nsuGateway",
      "nsuHost", "cardBrand", "acquirerNetwork", "authorizationCode", "installments", "amountCents", "occurredAt",
      "receivedAt")
    SELECT i."id", d."posId", d."sellerId", d."tenantId", i."approved", i."codResp", i."nsuGateway", i."nsuHost",
      i."cardBrand", i."acquirerNetwork", i."authorizationCode", i."installments", i."amountCents",
      (i."occurredAt"::timestamptz AT TIME ZONE 'UTC'), d."at"
    FROM "items" AS i JOIN "callerDevice" AS d USING ("index")
    WHERE d."deviceStatus" = 'ACTIVE' AND d."sellerStatus" = 'ACTIVE'
    ORDER BY d."posId", i."nsuGateway"
    ON CONFLICT ("posId", "nsuGateway") DO NOTHING
    RETURNING "id"
  ), "touched" AS (${touchNewest("PosDevice", "posId", "lastReportAt", "callerDevice", 1000)}
  ), "notified" AS (
    SELECT pg_notify('${changeChannel}', i."notify") FROM "items" AS i JOIN "inserted" AS n ON n."id" = i."id"
  )
  SELECT i."index", d."deviceStatus"::text AS "deviceStatus", d."sellerStatus"::text AS "sellerStatus",
    d."tenantId"::text AS "tenantId", n."id"::text AS "insertedId", k."tenantId"::text AS "keyTenantId",
    k."prefix" AS "keyPrefix", k."isRevoked", k."isExpired",
    (SELECT count(*) FROM "keyTouched")::int4 AS "keyTouched", (SELECT count(*) FROM "touched")::int4 AS "touched",
    (SELECT count(*) FROM "notified")::int4 AS "notified",
    s."stored"
  FROM "items" AS i LEFT JOIN "key" AS k USING ("index") LEFT JOIN "device" AS d USING ("index")
    LEFT JOIN "inserted" AS n ON n."id" = i."id"
    LEFT JOIN LATERAL (
      SELECT json_build_object('id', r."id", 'approved', r."approved", 'codResp', r."codResp", 'nsuHost', r."nsuHost",
        'cardBrand', r."cardBrand", 'acquirerNetwork', r."acquirerNetwork", 'authorizationCode', r."authorizationCode",
        'installments', r."installments", 'amountCents', r."amountCents", 'occurredAt', ${isoUtc('r."occurredAt"')}) AS "stored"
      FROM "PosTransactionReport" AS r
      WHERE n."id" IS NULL AND r."posId" = i."posId" AND r."nsuGateway" = i."nsuGateway"
      LIMIT 1
    ) AS s ON true
  ORDER BY i."index"`;

type TStoredReport = Pick<
  TTransactionReport,
  "approved" | "codResp" | "nsuHost" | "cardBrand" | "acquirerNetwork" | "authorizationCode" | "installments"
> & { id: string; amountCents: number; occurredAt: Date | string };

type TKeyedIngestRow = TIngestRow & {
  keyTenantId: string | null;
  keyPrefix: string | null;
  isRevoked: boolean | null;
  isExpired: boolean | null;
  stored: TStoredReport | null;
};

const posReportConflict = (nsuGateway: string) =>
  new PosApiError(
    409,
    "report_conflict",
    `a different report for nsuGateway ${nsuGateway} is already stored: kept for review, not applied`,
  );

type TKeyedIngest = { keyHash: string; report: TTransactionReport; id: string; now: Date };

const storeKeyedReports = (items: TKeyedIngest[]) =>
  runSqlForItems<TKeyedIngestRow>(
    batchedKeyedIngestStatement,
    items.map(({ keyHash, report, id, now }) => ({
      keyHash,
      id,
      posId: report.posId,
      approved: report.approved,
      codResp: report.codResp,
      nsuGateway: report.nsuGateway,
      nsuHost: report.nsuHost,
      cardBrand: report.cardBrand,
      acquirerNetwork: report.acquirerNetwork,
      authorizationCode: report.authorizationCode,
      installments: report.installments,
      amountCents: report.amountInCents,
      occurredAt: report.occurredAt,
      receivedAt: now.toISOString(),
      notify: changePayload({ kind: "pos_sale", id }),
    })),
  );

const ingestKeyedInBatch = createGroupCommit<TKeyedIngest, TKeyedIngestRow | undefined>({
  maxItems: 64,
  // One statement may insert an NSU once: a repeat in flight waits for the next batch, then compares.
  keyOf: ({ report }) => `${report.posId}\n${report.nsuGateway}`,
  run: storeKeyedReports,
  onError: (error, items) =>
    log.warn({ err: error, reports: items.length }, "pos reports: a batch failed; each of its reports goes alone"),
});

export function ingestTransactionReport(
  caller: TPosCaller | TKnownPosKey,
  report: TTransactionReport,
  now = new Date(),
  context: TPosLogContext = {},
): Promise<TReportOutcome> {
  return withSpan("pos report", { "pos.id": report.posId }, async () => {
    try {
      const outcome = await ingest(caller, report, now, context);
      countPosReport(outcome);
      return outcome;
    } catch (error) {
      countPosReport(error instanceof PosApiError ? error.reason : "error");
      throw error;
    }
  });
}

async function ingest(
  caller: TPosCaller | TKnownPosKey,
  report: TTransactionReport,
  now: Date,
  context: TPosLogContext,
): Promise<TReportOutcome> {
  // Bounded here: a year 0001 or 9999 sale would sort first (or last) everywhere and sit outside every period.
  const outOfBounds = occurredAtBoundsProblem(report.occurredAt, now);
  if (outOfBounds) throw new PosApiError(400, "occurred_at_out_of_bounds", outOfBounds);
  const id = randomUUID();
  const isKeyed = "keyHash" in caller;
  // A failed batch (a deadlock with another instance's, say) wrote nothing: each of its reports goes alone.
  const row = isKeyed
    ? await ingestKeyedInBatch({ keyHash: caller.keyHash, report, id, now }).catch(() =>
        storeKeyedReports([{ keyHash: caller.keyHash, report, id, now }]).then(([alone]) => alone),
      )
    : (
        await runSql<TKeyedIngestRow>(ingestStatement, [
          report.posId,
          caller.tenantId,
          id,
          report.approved,
          report.codResp,
          report.nsuGateway,
          report.nsuHost,
          report.cardBrand,
          report.acquirerNetwork,
          report.authorizationCode,
          report.installments,
          report.amountInCents,
          report.occurredAt,
          now.toISOString(),
          new Date(now.getTime() - 1000).toISOString(),
          changePayload({ kind: "pos_sale", id }),
        ])
      )[0];

  let tenantId: string | null = null;
  if (isKeyed) {
    if (!row?.keyTenantId) {
      forgetPosKey(caller.keyHash);
      throw posError.unauthorized("unknown_key");
    }
    context.keyPrefix = row.keyPrefix ?? undefined;
    context.tenantId = row.keyTenantId;
    if (row.isRevoked) throw posError.unauthorized("revoked_key");
    if (row.isExpired) throw posError.unauthorized("expired_key");
    tenantId = row.keyTenantId;
  } else tenantId = caller.tenantId;
  if (!row?.deviceStatus || row.tenantId !== tenantId) throw posNotFound();
  if (row.deviceStatus !== "ACTIVE") throw posError.business("pos_blocked", "PDV blocked");
  if (row.sellerStatus !== "ACTIVE") throw posError.business("seller_blocked", "seller blocked");
  if (row.insertedId) return "stored";
  return compareWithStored(report, now, row.stored ?? null);
}

// The NSU is stored already (read here if a parallel request committed it after the statement began): the same report
// is a harmless retry; a different one is kept once per distinct body for review and never overwrites the stored one.
async function compareWithStored(
  report: TTransactionReport,
  now: Date,
  seen: TStoredReport | null,
): Promise<TReportOutcome> {
  const stored =
    seen ??
    (await db.posTransactionReport.findUnique({
      where: { posId_nsuGateway: { posId: report.posId, nsuGateway: report.nsuGateway } },
    }));
  if (!stored) throw new Error("report neither inserted nor found");
  const isSame =
    stored.approved === report.approved &&
    stored.codResp === report.codResp &&
    stored.nsuHost === report.nsuHost &&
    stored.cardBrand === report.cardBrand &&
    stored.acquirerNetwork === report.acquirerNetwork &&
    stored.authorizationCode === report.authorizationCode &&
    stored.installments === report.installments &&
    stored.amountCents === report.amountInCents &&
    new Date(stored.occurredAt).getTime() === Date.parse(report.occurredAt);
  if (isSame) return "duplicate";
  const body = JSON.stringify(report);
  await db.$executeRaw`
    INSERT INTO "PosReportConflict" ("id", "reportId", "body", "receivedAt")
    SELECT ${randomUUID()}::uuid, ${stored.id}::uuid, ${body}::jsonb, ${now}
    WHERE NOT EXISTS (SELECT 1 FROM "PosReportConflict" WHERE "reportId" = ${stored.id}::uuid AND "body" = ${body}::jsonb)`;
  throw posReportConflict(report.nsuGateway);
}
