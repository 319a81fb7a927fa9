import "server-only";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";
import { propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { observeHttpRequest } from "./metrics";
import { buildRouteTemplates, type TRouteTemplates } from "./route-template";
import { enterSpan, isTraceExporting, startSpan } from "./tracing";

type TRequestTiming = { startedAt: bigint; pathname: string; method: string; span: Span | null };
type TTimedRequest = IncomingMessage & { [timing]?: TRequestTiming };
type TRequestMessage = { request: TTimedRequest; response: ServerResponse };

const timing = Symbol("payments-dashboard.request-timing");
const installed = Symbol.for("payments-dashboard.request-telemetry");

// The framework's own files: counted by nobody, and most of a page load's requests.
const isFrameworkAsset = (url: string) => url.startsWith("/_next/");

function pathnameOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

// A latency observation per request, and while exporting a span parenting this app's ones, from Node's own events:
// Next.js's request span needs a registered tracer provider, which turns on its tracing of every internal step.
export function installRequestTelemetry(templates: TRouteTemplates = buildRouteTemplates()): void {
  const registry = globalThis as { [installed]?: boolean };
  if (registry[installed]) return;
  registry[installed] = true;

  subscribe("http.server.request.start", (message) => {
    const { request } = message as TRequestMessage;
    const url = request.url ?? "/";
    if (isFrameworkAsset(url)) return;
    const method = request.method ?? "GET";
    let span: Span | null = null;
    if (isTraceExporting()) {
      const parent = request.headers.traceparent ? propagation.extract(ROOT_CONTEXT, request.headers) : ROOT_CONTEXT;
      span = startSpan(method, { kind: SpanKind.SERVER, attributes: { "http.request.method": method } }, parent);
      if (span) enterSpan(span, parent);
    }
    request[timing] = { startedAt: process.hrtime.bigint(), pathname: pathnameOf(url), method, span };
  });

  subscribe("http.server.response.finish", (message) => {
    const { request, response } = message as TRequestMessage;
    const started = request[timing];
    if (!started) return;
    request[timing] = undefined;
    const seconds = Number(process.hrtime.bigint() - started.startedAt) / 1e9;
    const { method, pathname } = started;
    const status = response.statusCode;
    const route = templates.templateOf(pathname) ?? (status === 404 ? "/_not-found" : "other");
    observeHttpRequest(route, method, status, seconds);
    const { span } = started;
    if (!span) return;
    span.updateName(`${method} ${route}`);
    span.setAttributes({ "http.route": route, "http.response.status_code": status });
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}
