import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { runSql } from "@/lib/db/sql";
import { changeChannel, changePayload } from "@/lib/events/bus";
import { countPosReport } from "@/lib/telemetry/metrics";
import { withSpan } from "@/lib/telemetry/tracing";
import type { TPosCaller } from "./authenticate";
import { PosApiError, posError } from "./errors";
import { occurredAtBoundsProblem, type TTransactionReport } from "./schemas";
import { posNotFound } from "./transaction-config";

// The common path is one statement (ON CONFLICT DO NOTHING); only a repeated NSU takes a second query, to compare.

export type TReportOutcome = "stored" | "duplicate";

type TIngestRow = {
  deviceStatus: string | null;
  sellerStatus: string | null;
  tenantId: string | null;
  insertedId: string | null;
};

const ingestStatement = `
  WITH device AS (
    SELECT d."posId", d."sellerId", d."tenantId", d."status" AS "deviceStatus", s."status" AS "sellerStatus"
    FROM "PosDevice" d JOIN "PosSeller" s ON s."id" = d."sellerId"
    WHERE d."posId" = $1::text
  ), inserted AS (
    INSERT INTO "PosTransactionReport" ("id", "posId", "sellerId", "tenantId", "approved", "codResp", "nsuGateway",
      "nsuHost", "cardBrand", "acquirerNetwork", "authorizationCode", "installments", "amountCents", "occurredAt",
      "receivedAt")
    SELECT $3::uuid, "posId", "sellerId", "tenantId", $4::boolean, $5::int4, $6::text, $7::text, $8::text, $9::text,
      $10::text, $11::int4, $12::int4, ($13::timestamptz AT TIME ZONE 'UTC'), ($14::timestamptz AT TIME ZONE 'UTC')
    FROM device
    WHERE "tenantId" = $2::uuid AND "deviceStatus" = 'ACTIVE' AND "sellerStatus" = 'ACTIVE'
    ON CONFLICT ("posId", "nsuGateway") DO NOTHING
    RETURNING "id"
  ), touched AS (
    UPDATE "PosDevice" SET "lastReportAt" = ($14::timestamptz AT TIME ZONE 'UTC')
    WHERE "posId" = (SELECT "posId" FROM device WHERE "tenantId" = $2::uuid)
      AND ("lastReportAt" IS NULL OR "lastReportAt" < ($15::timestamptz AT TIME ZONE 'UTC'))
    RETURNING 1
  ), notified AS (
    SELECT pg_notify('${changeChannel}', $16::text) FROM inserted
  )
  SELECT (SELECT "deviceStatus"::text FROM device) AS "deviceStatus",
    (SELECT "sellerStatus"::text FROM device) AS "sellerStatus",
    (SELECT "tenantId"::text FROM device) AS "tenantId",
    (SELECT "id"::text FROM inserted) AS "insertedId",
    (SELECT count(*) FROM touched)::int4 AS "touched",
    (SELECT count(*) FROM notified)::int4 AS "notified"`;

const posReportConflict = (nsuGateway: string) =>
  new PosApiError(
    409,
    "report_conflict",
    `a different report for nsuGateway ${nsuGateway} is already stored: kept for review, not applied`,
  );

export function ingestTransactionReport(
  caller: TPosCaller,
  report: TTransactionReport,
  now = new Date(),
): Promise<TReportOutcome> {
  return withSpan("pos report", { "pos.id": report.posId }, async () => {
    try {
      const outcome = await ingest(caller, report, now);
      countPosReport(outcome);
      return outcome;
    } catch (error) {
      countPosReport(error instanceof PosApiError ? error.reason : "error");
      throw error;
    }
  });
}

async function ingest(caller: TPosCaller, report: TTransactionReport, now: Date): Promise<TReportOutcome> {
  // Bounded here: a year 0001 or 9999 sale would sort first (or last) everywhere and sit outside every period.
  const outOfBounds = occurredAtBoundsProblem(report.occurredAt, now);
  if (outOfBounds) throw new PosApiError(400, "occurred_at_out_of_bounds", outOfBounds);
  const occurredAt = new Date(report.occurredAt);
  const id = randomUUID();
  const [row] = await runSql<TIngestRow>(ingestStatement, [
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
  ]);

  if (!row?.deviceStatus || row.tenantId !== caller.tenantId) throw posNotFound();
  if (row.deviceStatus !== "ACTIVE") throw posError.business("pos_blocked", "PDV blocked");
  if (row.sellerStatus !== "ACTIVE") throw posError.business("seller_blocked", "seller blocked");
  if (row.insertedId) return "stored";
  return compareWithStored(report, occurredAt, now);
}

// The NSU is stored already (maybe by a parallel request that just committed): the same report is a harmless
// retry; a different one is kept once per distinct body for review and never overwrites the stored report.
async function compareWithStored(report: TTransactionReport, occurredAt: Date, now: Date): Promise<TReportOutcome> {
  const stored = await db.posTransactionReport.findUnique({
    where: { posId_nsuGateway: { posId: report.posId, nsuGateway: report.nsuGateway } },
  });
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
    stored.occurredAt.getTime() === occurredAt.getTime();
  if (isSame) return "duplicate";
  const body = JSON.stringify(report);
  await db.$executeRaw`
    INSERT INTO "PosReportConflict" ("id", "reportId", "body", "receivedAt")
    SELECT ${randomUUID()}::uuid, ${stored.id}::uuid, ${body}::jsonb, ${now}
    WHERE NOT EXISTS (SELECT 1 FROM "PosReportConflict" WHERE "reportId" = ${stored.id}::uuid AND "body" = ${body}::jsonb)`;
  throw posReportConflict(report.nsuGateway);
}
