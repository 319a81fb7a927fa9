import "server-only";
import { Counter, Gauge, Histogram, Registry } from "prom-client";

// Each metric is defined once, here; names and labels are listed in docs/operations.md (## Metrics).

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const lagBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];

function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    httpRequest: new Histogram({
      name: "payments_http_request_duration_seconds",
      help: "Requests served, by route template, method and status class.",
      labelNames: ["route", "method", "status_class"] as const,
      buckets: latencyBuckets,
      registers,
    }),
    gatewayCall: new Histogram({
      name: "payments_gateway_call_duration_seconds",
      help: "Gateway call attempts, by operation, path template and outcome.",
      labelNames: ["operation", "path", "outcome"] as const,
      buckets: latencyBuckets,
      registers,
    }),
    gatewayErrors: new Counter({
      name: "payments_gateway_errors_total",
      help: "Gateway calls that failed, by HTTP status (0: no answer) and upstream error code.",
      labelNames: ["status", "code"] as const,
      registers,
    }),
    webhooksReceived: new Counter({
      name: "payments_webhook_deliveries_received_total",
      help: "Webhook deliveries that reached the receiver, by what it answered.",
      labelNames: ["outcome"] as const,
      registers,
    }),
    webhooksApplied: new Counter({
      name: "payments_webhook_deliveries_applied_total",
      help: "Webhook deliveries applied to the mirror, by outcome (APPLIED, DUPLICATE, IGNORED, FAILED).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    webhookLag: new Histogram({
      name: "payments_webhook_delivery_lag_seconds",
      help: "From the delivery's X-Webhook-Timestamp to its application.",
      buckets: lagBuckets,
      registers,
    }),
    jobRuns: new Counter({
      name: "payments_job_runs_total",
      help: "Background job runs, by job and outcome.",
      labelNames: ["job", "outcome"] as const,
      registers,
    }),
    jobFailures: new Counter({
      name: "payments_job_failures_total",
      help: "Background job runs that failed or timed out, by job.",
      labelNames: ["job"] as const,
      registers,
    }),
    posReports: new Counter({
      name: "payments_pos_reports_total",
      help: "POS transaction reports received on /v1, by outcome.",
      labelNames: ["outcome"] as const,
      registers,
    }),
    cardPayments: new Counter({
      name: "payments_card_payments_total",
      help: "Card payments answered by the gateway, approved or refused.",
      labelNames: ["outcome"] as const,
      registers,
    }),
    driftFound: new Counter({
      name: "payments_mirror_drift_found_total",
      help: "Differences found between the mirror and the gateway, by kind.",
      labelNames: ["kind"] as const,
      registers,
    }),
    driftHealed: new Counter({
      name: "payments_mirror_drift_healed_total",
      help: "Differences healed in the mirror, by kind.",
      labelNames: ["kind"] as const,
      registers,
    }),
    certificateDaysLeft: new Gauge({
      name: "payments_gateway_certificate_days_left",
      help: "Days until the gateway client certificate expires (read at each scrape).",
      registers,
    }),
  };
}

type TMetrics = ReturnType<typeof createMetrics>;

// On globalThis: a production build holds a copy of this module per chunk, and a registry refuses a name twice.
const shared = globalThis as typeof globalThis & { __paymentsMetrics?: TMetrics };

export function isTelemetryDisabled(env: Record<string, string | undefined> = process.env): boolean {
  return env.TELEMETRY_DISABLED === "1";
}

const isDisabled = isTelemetryDisabled();

function metrics(): TMetrics {
  shared.__paymentsMetrics ??= createMetrics();
  return shared.__paymentsMetrics;
}

export function getMetricsRegistry(): Registry {
  return metrics().registry;
}

function statusClass(status: number): string {
  return status > 0 ? `${Math.floor(status / 100)}xx` : "none";
}

export function observeHttpRequest(route: string, method: string, status: number, seconds: number): void {
  if (isDisabled) return;
  metrics().httpRequest.observe({ route, method, status_class: statusClass(status) }, seconds);
}

export type TGatewayOutcome = "ok" | "refused" | "http_error" | "invalid_body" | "timeout" | "unreachable";

export function observeGatewayCall(operation: string, path: string, outcome: TGatewayOutcome, seconds: number): void {
  if (isDisabled) return;
  metrics().gatewayCall.observe({ operation, path, outcome }, seconds);
}

export function countGatewayError(status: number, code: string | undefined): void {
  if (isDisabled) return;
  metrics().gatewayErrors.inc({ status: String(status), code: code ?? "none" });
}

export function countWebhookReceived(outcome: string): void {
  if (isDisabled) return;
  metrics().webhooksReceived.inc({ outcome });
}

export function countWebhookApplied(outcome: string, sentAt: Date | null, now = Date.now()): void {
  if (isDisabled) return;
  const all = metrics();
  all.webhooksApplied.inc({ outcome });
  if (outcome === "APPLIED" && sentAt) all.webhookLag.observe(Math.max(0, now - sentAt.getTime()) / 1000);
}

export function countJobRun(job: string, outcome: string): void {
  if (isDisabled) return;
  const all = metrics();
  all.jobRuns.inc({ job, outcome });
  if (outcome === "FAILED") all.jobFailures.inc({ job });
}

export function countPosReport(outcome: string): void {
  if (isDisabled) return;
  metrics().posReports.inc({ outcome });
}

export function countCardPayment(outcome: "approved" | "refused"): void {
  if (isDisabled) return;
  metrics().cardPayments.inc({ outcome });
}

export function countDriftHealed(kind: string): void {
  if (isDisabled) return;
  const all = metrics();
  all.driftFound.inc({ kind });
  all.driftHealed.inc({ kind });
}

export function setCertificateDaysLeft(days: number): void {
  metrics().certificateDaysLeft.set(days);
}
