import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SpanKind } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { getTracer as nextTracer } from "next/dist/server/lib/trace/tracer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMetricsRegistry } from "./metrics";
import { routeTemplates } from "./route-template";
import { batchOptionsFromEnv, startTelemetry } from "./start";
import { withSpan } from "./tracing";

const exporter = new InMemorySpanExporter();
const routes = routeTemplates({
  staticRoutes: [{ page: "/pix/new" }],
  dynamicRoutes: [{ page: "/api/pix/charges/[txid]", regex: "^/api/pix/charges/([^/]+?)(?:/)?$" }],
});
startTelemetry({ spanProcessors: [new SimpleSpanProcessor({ exporter })], env: {}, routes });

let server: http.Server;
let baseUrl: string;
const seenByHandler: { nextTracing?: boolean } = {};

beforeAll(async () => {
  server = http.createServer(async (request, response) => {
    await withSpan("route handler", {}, async () => {
      seenByHandler.nextTracing = nextTracer().isOpenTelemetryEnabled();
    });
    for await (const _chunk of request);
    response.writeHead(request.url?.startsWith("/missing") ? 404 : 200).end("ok");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function requestCount(route: string, method: string): Promise<number> {
  const text = await getMetricsRegistry().getSingleMetricAsString("payments_http_request_duration_seconds");
  const line = text
    .split("\n")
    .find((each) =>
      each.startsWith(`payments_http_request_duration_seconds_count{route="${route}",method="${method}"`),
    );
  return Number(line?.split(" ").at(-1) ?? 0);
}

describe("a span and a latency observation per request, while exporting", () => {
  it("names the request's span by its route template and makes it the parent of this app's spans", async () => {
    exporter.reset();
    const before = await requestCount("/api/pix/charges/[txid]", "GET");
    expect((await fetch(`${baseUrl}/api/pix/charges/abc123?refresh=1`)).status).toBe(200);
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(2);
    const [handler, root] = exporter.getFinishedSpans();
    expect(root?.name).toBe("GET /api/pix/charges/[txid]");
    expect(root?.attributes).toMatchObject({
      "http.route": "/api/pix/charges/[txid]",
      "http.response.status_code": 200,
    });
    expect(handler?.name).toBe("route handler");
    expect(handler?.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
    expect(handler?.spanContext().traceId).toBe(root?.spanContext().traceId);
    expect(await requestCount("/api/pix/charges/[txid]", "GET")).toBe(before + 1);
  });

  it("keeps each request's spans apart on one kept-alive connection, and joins a caller's trace", async () => {
    exporter.reset();
    const callerTrace = "0af7651916cd43dd8448eb211c80319c";
    await fetch(`${baseUrl}/pix/new`, {
      method: "POST",
      headers: { traceparent: `00-${callerTrace}-b7ad6b7169203331-01` },
      body: "{}",
    });
    await fetch(`${baseUrl}/pix/new.rsc`);
    await fetch(`${baseUrl}/missing/page`);
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(6);
    const roots = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.SERVER);
    expect(roots.map((span) => span.name)).toEqual(["POST /pix/new", "GET /pix/new", "GET /_not-found"]);
    expect(roots[0]?.spanContext().traceId).toBe(callerTrace);
    const traces = new Set(roots.map((span) => span.spanContext().traceId));
    expect(traces.size).toBe(3);
    for (const handler of exporter.getFinishedSpans().filter((span) => span.name === "route handler")) {
      const root = roots.find((span) => span.spanContext().spanId === handler.parentSpanContext?.spanId);
      expect(root?.spanContext().traceId).toBe(handler.spanContext().traceId);
    }
  });

  it("leaves Next.js's tracing of its own steps off, inside this app's spans too", async () => {
    expect(nextTracer().isOpenTelemetryEnabled()).toBe(false);
    await fetch(`${baseUrl}/pix/new`);
    expect(seenByHandler.nextTracing).toBe(false);
    let tracedWithSpan = true;
    await withSpan("outer", {}, async () => {
      nextTracer().trace("BaseServer.handleRequest", (...args: unknown[]) => {
        tracedWithSpan = args.length > 0;
      });
    });
    expect(tracedWithSpan).toBe(false);
  });
});

describe("route templates from the build's routes manifest", () => {
  it.each([
    ["/pix/new", "/pix/new"],
    ["/pix/new/", "/pix/new"],
    ["/pix/new.rsc", "/pix/new"],
    ["/pix/new.segments/_tree.segment.rsc", "/pix/new"],
    ["/api/pix/charges/TX1", "/api/pix/charges/[txid]"],
    ["/api/pix/charges/TX1/extra", null],
    ["/favicon.ico", null],
  ])("%s is %s", (pathname, template) => {
    expect(routes.templateOf(pathname)).toBe(template);
  });
});

describe("the batch span processor's standard variables", () => {
  it("are read as positive integers, and an invalid one keeps the SDK's default", () => {
    expect(
      batchOptionsFromEnv({
        OTEL_BSP_SCHEDULE_DELAY: "2000",
        OTEL_BSP_EXPORT_TIMEOUT: " 10000 ",
        OTEL_BSP_MAX_QUEUE_SIZE: "-4",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "many",
      }),
    ).toEqual({
      scheduledDelayMillis: 2000,
      exportTimeoutMillis: 10000,
      maxQueueSize: undefined,
      maxExportBatchSize: undefined,
    });
  });
});
