import { metricsResponse } from "@/lib/telemetry/metrics-endpoint";

export const dynamic = "force-dynamic";

// GET /api/metrics – Prometheus's scrape, authenticated by METRICS_TOKEN (docs/operations.md, ## Metrics).
export function GET(request: Request) {
  return metricsResponse(request);
}
