import "server-only";
import { randomUUID } from "node:crypto";
import { auditRowOf, logAudited, type TRecordAuditInput } from "@/lib/audit/audit-log";
import { transactionLockSql } from "@/lib/db/locks";
import { runSql } from "@/lib/db/sql";
import { changeChannel, changePayload } from "@/lib/events/bus";
import { succeededKeySql } from "@/lib/idempotency/idempotency";
import { cardPaymentLockKey, type newCardPaymentRows } from "./mirror";
import type { cardRetryAdviceRow } from "./retry-advice";

// A payment just created upstream, recorded in one statement: mirror row, installments, key result, audit, advice and
// live update. Each write joins "payment": a row already mirrored writes nothing and the caller takes the general path.
// Timestamps travel as ISO strings inside the JSON and are stored as their UTC wall time, as Prisma stores them.
const recordCreatedSql = `
WITH "lock" AS (
  SELECT ${transactionLockSql.byText("$1::text")}
), "payment" AS (
  INSERT INTO "CardPayment"
  SELECT r.* FROM jsonb_populate_record(NULL::"CardPayment", $2::jsonb) AS r, "lock"
  ON CONFLICT ("id") DO NOTHING
  RETURNING "id"
), "installments" AS (
  INSERT INTO "CardPaymentInstallment"
  SELECT r.* FROM jsonb_populate_recordset(NULL::"CardPaymentInstallment", $3::jsonb) AS r, "payment"
  RETURNING 1
), "key" AS (
  ${succeededKeySql({ scope: "$4", key: "$5", now: "$6", resultId: '"payment"."id"', from: '"payment"' })}
  RETURNING 1
), "audit" AS (
  INSERT INTO "AuditLog"
  SELECT r.* FROM jsonb_populate_record(NULL::"AuditLog", $7::jsonb) AS r, "payment"
  RETURNING 1
), "advice" AS (
  INSERT INTO "CardRetryBlock"
  SELECT r.* FROM jsonb_populate_recordset(NULL::"CardRetryBlock", $8::jsonb) AS r, "payment"
  ON CONFLICT ("orderKey", "cardBin", "cardLastFour", "adviceCode") DO UPDATE SET "cardExpiry" = EXCLUDED."cardExpiry",
    "retryAfter" = EXCLUDED."retryAfter", "paymentId" = EXCLUDED."paymentId", "createdAt" = EXCLUDED."createdAt"
  RETURNING 1
), "notify" AS (
  SELECT pg_notify($9::text, $10::text) FROM "payment"
)
SELECT (SELECT count(*) FROM "payment")::int AS "created", (SELECT count(*) FROM "notify")::int AS "notified"`;

export type TCreatedCardPayment = {
  rows: ReturnType<typeof newCardPaymentRows>;
  idempotencyKey: { scope: string; key: string };
  audit: TRecordAuditInput;
  retryAdvice: ReturnType<typeof cardRetryAdviceRow>;
  now: Date;
};

/** False when the mirror already had the payment: nothing was written. */
export async function recordCreatedCardPayment(created: TCreatedCardPayment): Promise<boolean> {
  const { payment, installments } = created.rows;
  const [result] = await runSql<{ created: number }>(recordCreatedSql, [
    cardPaymentLockKey(payment.id),
    JSON.stringify({ ...payment, createdAt: created.now, updatedAt: created.now }),
    JSON.stringify(installments),
    created.idempotencyKey.scope,
    created.idempotencyKey.key,
    created.now.toISOString(),
    JSON.stringify({ id: randomUUID(), occurredAt: created.now, ...auditRowOf(created.audit) }),
    JSON.stringify(created.retryAdvice ? [{ id: randomUUID(), ...created.retryAdvice }] : []),
    changeChannel,
    changePayload({ kind: "card_payment", id: payment.id }),
  ]);
  if (!result || result.created === 0) return false;
  logAudited(created.audit);
  return true;
}
