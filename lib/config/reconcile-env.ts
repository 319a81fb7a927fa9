import { z } from "zod";
import { defineEnvConcern, parseEnvConcern } from "./define-env";

// The gateway stops retrying a webhook after about 8 minutes (spec 6.4): a periodic pass catches what was lost.
export const reconcileEnvConcern = defineEnvConcern("reconcile", {
  RECONCILE_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .refine((value) => value === 0 || (value >= 30 && value <= 86_400), "must be 0, or 30 to 86400")
    .default(300)
    .describe(
      "Seconds between reconciliation runs (Pix charges and refunds read from the gateway's lists), 30 to 86400, or 0 to disable; defaults to 300.",
    ),
  RECONCILE_WINDOW_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(2_160)
    .default(48)
    .describe(
      "How far back, by creation time, each run reads charges and refunds, 1 to 2160 hours (90 days); defaults to 48.",
    ),
  RECONCILE_OLDER_CHECKS: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000)
    .default(50)
    .describe(
      "Mirrored rows older than the window each run reads by id, per kind, never-checked and least recently checked first, 0 to 1000 (0 turns the rolling check off); defaults to 50.",
    ),
});

export type TReconcileEnv = z.infer<typeof reconcileEnvConcern.schema>;

export function getReconcileEnv(env: Record<string, string | undefined> = process.env): TReconcileEnv {
  return parseEnvConcern(reconcileEnvConcern, env);
}
