import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { createGroupCommit } from "@/lib/db/group-commit";
import { isoUtc, runSqlForItems } from "@/lib/db/sql";
import { changeChannel, changePayload } from "@/lib/events/bus";
import { log } from "@/lib/log";
import { countPosReport } from "@/lib/telemetry/metrics";
import { withSpan } from "@/lib/telemetry/tracing";
import { forgetPosKey, lastUsedResolutionMs, type TKnownPosKey, type TPosCaller } from "./authenticate";
import { PosApiError, posError, type TPosLogContext } from "./errors";
import { occurredAtBoundsProblem, type TTransactionReport } from "./schemas";
import { posNotFound } from "./transaction-config";

export type TReportOutcome = "stored" | "duplicate";

// A row's time column set to the newest "at" of the batch's rows for it, unless already within resolutionMs of it.
const touchNewest = (table: string, key: string, column: string, from: string, resolutionMs: number) => `
    UPDATE "${table}" AS r SET "${column}" = t."at"
    FROM (SELECT "${key}", max("at") AS "at" FROM "${from}" GROUP BY "${key}") AS t
    WHERE r."${key}" = t."${key}" AND (r."${column}" IS NULL OR r."${column}" < t."at" - interval '${resolutionMs} milliseconds')
    RETURNING 1`;

// A row per report: its key's validity at the report's time, the key's use, the PDV, a repeat's stored report.
const ingestStatement = `
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

type TIngestRow = {
  deviceStatus: string | null;
  sellerStatus: string | null;
  tenantId: string | null;
  insertedId: string | null;
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

type TIngest = { keyHash: string; report: TTransactionReport; id: string; now: Date };

const storeReports = (items: TIngest[]) =>
  runSqlForItems<TIngestRow>(
    ingestStatement,
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

const ingestInBatch = createGroupCommit<TIngest, TIngestRow | undefined>({
  maxItems: 64,
  // One statement may insert an NSU once: a repeat in flight waits for the next batch, then compares.
  keyOf: ({ report }) => `${report.posId}\n${report.nsuGateway}`,
  run: storeReports,
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
  // A failed batch (a deadlock with another instance's, say) wrote nothing: each of its reports goes alone.
  const item = { keyHash: caller.keyHash, report, id, now };
  const row = await ingestInBatch(item).catch(() => storeReports([item]).then(([alone]) => alone));
  if (!row?.keyTenantId) {
    forgetPosKey(caller.keyHash);
    throw posError.unauthorized("unknown_key");
  }
  context.keyPrefix = row.keyPrefix ?? undefined;
  context.tenantId = row.keyTenantId;
  if (row.isRevoked) throw posError.unauthorized("revoked_key");
  if (row.isExpired) throw posError.unauthorized("expired_key");
  if (!row.deviceStatus || row.tenantId !== row.keyTenantId) throw posNotFound();
  if (row.deviceStatus !== "ACTIVE") throw posError.business("pos_blocked", "PDV blocked");
  if (row.sellerStatus !== "ACTIVE") throw posError.business("seller_blocked", "seller blocked");
  if (row.insertedId) return "stored";
  return compareWithStored(report, now, row.stored);
}

// A stored NSU (read again if a parallel request committed it after the statement began): the same report is a
// harmless retry; a different one is kept once per distinct body for review, never overwriting the stored one.
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
