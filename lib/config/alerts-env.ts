import { z } from "zod";
import { defineEnvConcern, parseEnvConcern } from "./define-env";

export const alertsEnvConcern = defineEnvConcern("alerts", {
  ALERTS_EVALUATE_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .refine((value) => value === 0 || (value >= 1 && value <= 3_600), "must be 0, or 1 to 3600")
    .default(60)
    .describe(
      "Seconds between evaluations of the alert rules (lib/alerts), 1 to 3600, or 0 to disable; defaults to 60.",
    ),
});

export function getAlertsEnv(env: Record<string, string | undefined> = process.env) {
  return parseEnvConcern(alertsEnvConcern, env);
}
