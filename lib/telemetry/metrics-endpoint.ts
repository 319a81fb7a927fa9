import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { getTelemetryEnv } from "@/lib/config/telemetry-env";
import { getGatewayCertificateReport } from "@/lib/gateway/certificate";
import { getMetricsRegistry, setCertificateDaysLeft } from "./metrics";

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

// Digests of equal length, so the comparison takes the same time whatever the token sent.
function isExpectedBearer(header: string | null, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(header?.trim() ?? "");
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/** GET /api/metrics: absent (404) without METRICS_TOKEN; 401 without the right bearer token. */
export async function metricsResponse(request: Request, env: Record<string, string | undefined> = process.env) {
  const { METRICS_TOKEN } = getTelemetryEnv(env);
  if (!METRICS_TOKEN) return new Response("Not Found", { status: 404 });
  if (!isExpectedBearer(request.headers.get("authorization"), METRICS_TOKEN)) {
    return new Response("Unauthorized", { status: 401, headers: { "www-authenticate": 'Bearer realm="metrics"' } });
  }
  const report = getGatewayCertificateReport();
  if (report.ok) setCertificateDaysLeft(report.certificate.daysUntilExpiry);
  const registry = getMetricsRegistry();
  return new Response(await registry.metrics(), {
    headers: { "content-type": registry.contentType, "cache-control": "no-store" },
  });
}
