import { describe, expect, it } from "vitest";
import { observeGatewayCall } from "./metrics";
import { metricsResponse } from "./metrics-endpoint";
import { isTraceExportRequested } from "./tracing";

const token = "metrics-token-for-the-unit-test";
const scrape = (authorization?: string, env: Record<string, string | undefined> = { METRICS_TOKEN: token }) =>
  metricsResponse(
    new Request("http://127.0.0.1/api/metrics", { headers: authorization ? { authorization } : {} }),
    env,
  );

describe("GET /api/metrics", () => {
  it("is absent without METRICS_TOKEN, refuses a missing or wrong token, and serves the registry to the right one", async () => {
    expect((await scrape(`Bearer ${token}`, {})).status).toBe(404);
    expect((await scrape()).status).toBe(401);
    expect((await scrape(`Bearer ${token}x`)).status).toBe(401);
    expect((await scrape(`Basic ${token}`)).status).toBe(401);

    observeGatewayCall("pix-charges.get", "/api/v1/pix-charges/{id}", "ok", 0.012);
    const response = await scrape(`Bearer ${token}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(await response.text()).toContain(
      'payments_gateway_call_duration_seconds_count{operation="pix-charges.get",path="/api/v1/pix-charges/{id}",outcome="ok"} 1',
    );
  });
});

describe("trace export rule", () => {
  it("exports only when an OTEL_* variable names an exporter or an endpoint, and never when the SDK is disabled", () => {
    expect(isTraceExportRequested({})).toBe(false);
    expect(isTraceExportRequested({ OTEL_TRACES_EXPORTER: "none" })).toBe(false);
    expect(isTraceExportRequested({ OTEL_TRACES_EXPORTER: "otlp" })).toBe(true);
    expect(isTraceExportRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(isTraceExportRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(
      true,
    );
    expect(isTraceExportRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(isTraceExportRequested({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://x" })).toBe(
      false,
    );
    expect(isTraceExportRequested({ OTEL_TRACES_EXPORTER: "otlp", TELEMETRY_DISABLED: "1" })).toBe(false);
  });
});
