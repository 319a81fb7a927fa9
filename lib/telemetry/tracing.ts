import "server-only";
import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  type SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { isTelemetryDisabled } from "./metrics";

export const appTracerName = "payments-dashboard";

// Exporting is on only when the standard variables ask for it (docs/operations.md, ## Tracing).
export function isTraceExportRequested(env: Record<string, string | undefined> = process.env): boolean {
  if (isTelemetryDisabled(env)) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporters) return exporters.split(",").some((name) => name.trim() !== "none");
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

const shared = globalThis as typeof globalThis & { __paymentsTraceExport?: boolean; __paymentsTracer?: Tracer };

/** True once spans are exported: only then is a trace context stored with a mirror row or sent upstream. */
export function isTraceExporting(): boolean {
  return shared.__paymentsTraceExport === true;
}

/**
 * `tracer` is the exporting provider's own: the global one goes through a proxy and Next.js's per-span wrapper for
 * `use cache` functions, which this app does not use, on every span.
 */
export function markTraceExporting(isExporting: boolean, tracer?: Tracer): void {
  shared.__paymentsTraceExport = isExporting;
  shared.__paymentsTracer = isExporting ? tracer : undefined;
}

type TSpanOptions = { kind?: SpanKind; parent?: Context; links?: Link[] };

const globalTracer = trace.getTracer(appTracerName);
const unrecorded = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

function activeTracer(): Tracer {
  return shared.__paymentsTracer ?? globalTracer;
}

/** Without export nothing records this app's spans, so none is started and no context is switched. */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  options: TSpanOptions = {},
): Promise<T> {
  if (!isTraceExporting()) return fn(unrecorded);
  const parent = options.parent ?? context.active();
  return activeTracer().startActiveSpan(
    name,
    { attributes, kind: options.kind, links: options.links },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : String(error) });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** For a span with no children (an SQL statement): not made active, so no context switch is paid. */
export async function withLeafSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
  const span = activeTracer().startSpan(name, { attributes });
  try {
    return await fn();
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** The active span's W3C traceparent, to store beside a row a later, separate request continues (a webhook). */
export function activeTraceParent(): string | null {
  if (!isTraceExporting()) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

export function contextOfTraceParent(traceParent: string | null | undefined): Context | undefined {
  if (!traceParent) return undefined;
  const extracted = propagation.extract(ROOT_CONTEXT, { traceparent: traceParent });
  const spanContext = trace.getSpanContext(extracted);
  return spanContext && isSpanContextValid(spanContext) ? extracted : undefined;
}

export function injectTraceHeaders(headers: Record<string, string>): void {
  if (isTraceExporting()) propagation.inject(context.active(), headers);
}

/** For pino's mixin: the active span's ids, when one is recording. */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}
