import { z } from "zod";
import { defineEnvConcern, parseEnvConcern } from "./define-env";

const days = (fallback: number, what: string) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(3_650)
    .default(fallback)
    .describe(`Days to keep ${what} before the retention job deletes them, 1 to 3650; defaults to ${fallback}.`);

export const retentionEnvConcern = defineEnvConcern("retention", {
  RETENTION_WEBHOOK_DELIVERY_DAYS: days(90, "webhook deliveries and refusal summaries"),
  RETENTION_AUDIT_LOG_DAYS: days(400, "audit log entries"),
  RETENTION_RATE_LIMIT_DAYS: days(1, "rate-limit counters after their window ended"),
  RETENTION_IDEMPOTENCY_DAYS: days(30, "finished (succeeded or failed) idempotency keys"),
  RETENTION_MAIL_DAYS: days(30, "mail in the outbox (sent or failed)"),
  RETENTION_GATEWAY_CALL_DAYS: days(30, "per-minute gateway call tallies (the health page reads the last 24 h)"),
});

export type TRetentionEnv = z.infer<typeof retentionEnvConcern.schema>;

export function getRetentionEnv(env: Record<string, string | undefined> = process.env): TRetentionEnv {
  return parseEnvConcern(retentionEnvConcern, env);
}
