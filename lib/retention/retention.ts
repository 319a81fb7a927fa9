import "server-only";
import { getRetentionEnv } from "@/lib/config/retention-env";
import { db } from "@/lib/db/client";

// Deletes what is older than its retention (docs/jobs.md), in small batches so no statement holds locks for long.
// The effect ledger (WebhookEffect) is kept: it is what makes an old event apply only once.

const batchSize = 5_000;
const dayMs = 24 * 60 * 60_000;

export type TRetentionDays = {
  webhookDeliveries: number;
  auditLog: number;
  rateLimitBuckets: number;
  idempotencyKeys: number;
  mailMessages: number;
  gatewayCallMinutes: number;
};
export type TRetentionResult = TRetentionDays;

function retentionDaysFromEnv(): TRetentionDays {
  const env = getRetentionEnv();
  return {
    webhookDeliveries: env.RETENTION_WEBHOOK_DELIVERY_DAYS,
    auditLog: env.RETENTION_AUDIT_LOG_DAYS,
    rateLimitBuckets: env.RETENTION_RATE_LIMIT_DAYS,
    idempotencyKeys: env.RETENTION_IDEMPOTENCY_DAYS,
    mailMessages: env.RETENTION_MAIL_DAYS,
    gatewayCallMinutes: env.RETENTION_GATEWAY_CALL_DAYS,
  };
}

// Table and condition are constants of this file; only the cutoff is a parameter.
async function deleteInBatches(table: string, condition: string, cutoff: Date, signal?: AbortSignal): Promise<number> {
  const sql = `DELETE FROM "${table}" WHERE ctid = ANY (ARRAY(
    SELECT ctid FROM "${table}" WHERE ${condition} < ($1::timestamptz AT TIME ZONE 'UTC') LIMIT ${batchSize}))`;
  let total = 0;
  for (;;) {
    signal?.throwIfAborted();
    const deleted = await db.$executeRawUnsafe(sql, cutoff.toISOString());
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

export async function runRetention(
  options: { now?: Date; days?: TRetentionDays; signal?: AbortSignal } = {},
): Promise<TRetentionResult> {
  const now = options.now ?? new Date();
  const days = options.days ?? retentionDaysFromEnv();
  const before = (count: number) => new Date(now.getTime() - count * dayMs);
  return {
    webhookDeliveries: await deleteInBatches(
      "WebhookDelivery",
      `"receivedAt"`,
      before(days.webhookDeliveries),
      options.signal,
    ),
    auditLog: await deleteInBatches("AuditLog", `"occurredAt"`, before(days.auditLog), options.signal),
    rateLimitBuckets: await deleteInBatches(
      "RateLimitBucket",
      `"expiresAt"`,
      before(days.rateLimitBuckets),
      options.signal,
    ),
    idempotencyKeys: await deleteInBatches(
      "IdempotencyKey",
      `"status" IN ('SUCCEEDED', 'FAILED') AND "updatedAt"`,
      before(days.idempotencyKeys),
      options.signal,
    ),
    mailMessages: await deleteInBatches("MailMessage", `"createdAt"`, before(days.mailMessages), options.signal),
    gatewayCallMinutes: await deleteInBatches(
      "GatewayCallMinute",
      `"minute"`,
      before(days.gatewayCallMinutes),
      options.signal,
    ),
  };
}
