import { z } from "zod";
import { defineEnvConcern, EnvValidationError, parseEnvConcern } from "./define-env";

// Tracing itself is configured by the standard OTEL_* variables, read by the OpenTelemetry SDK (docs/operations.md).
export const telemetryEnvConcern = defineEnvConcern("telemetry", {
  METRICS_TOKEN: z
    .string()
    .min(16, "must be at least 16 characters")
    .optional()
    .describe(
      "Bearer token Prometheus sends to GET /api/metrics (openssl rand -hex 24); unset, the endpoint answers 404.",
    ),
  WORKER_METRICS_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65_535)
    .optional()
    .describe(
      "Port on which `npm run worker` serves GET /metrics to Prometheus, with the METRICS_TOKEN bearer as /api/metrics; unset, the worker serves none.",
    ),
  TRACE_SQL_STATEMENTS: z
    .enum(["0", "1"])
    .default("1")
    .describe("0 leaves SQL statements out of exported traces (one span each otherwise); defaults to 1."),
  TELEMETRY_DISABLED: z
    .enum(["0", "1"])
    .optional()
    .describe("1 turns metrics and tracing off altogether (the overhead benchmark's baseline); unset or 0 otherwise."),
});

export type TTelemetryEnv = z.infer<typeof telemetryEnvConcern.schema>;

export function getTelemetryEnv(env: Record<string, string | undefined> = process.env): TTelemetryEnv {
  return parseEnvConcern(telemetryEnvConcern, env);
}

// The worker's counters would otherwise be open to anyone who reaches the port.
export function workerMetricsPort(env: Record<string, string | undefined> = process.env): number | null {
  const parsed = getTelemetryEnv(env);
  if (parsed.WORKER_METRICS_PORT === undefined) return null;
  if (!parsed.METRICS_TOKEN)
    throw new EnvValidationError([
      {
        variable: "WORKER_METRICS_PORT",
        problem: "is set, but METRICS_TOKEN is not",
        fix: "Set METRICS_TOKEN (openssl rand -hex 24), the bearer token Prometheus sends, or unset WORKER_METRICS_PORT.",
      },
    ]);
  return parsed.WORKER_METRICS_PORT;
}
