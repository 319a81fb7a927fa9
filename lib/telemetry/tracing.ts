import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import {
  type Attributes,
  type Context,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  type SpanKind,
  type SpanOptions,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { isTelemetryDisabled } from "./metrics";

export const appTracerName = "payments-dashboard";

export function isTraceExportRequested(env: Record<string, string | undefined> = process.env): boolean {
  if (isTelemetryDisabled(env)) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporters) return exporters.split(",").some((name) => name.trim() !== "none");
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

// On globalThis: a production build holds a copy of this module per chunk.
const shared = globalThis as typeof globalThis & {
  __paymentsTracer?: TSpanStarter;
  __paymentsSpanContexts?: AsyncLocalStorage<Context>;
};

/** True once spans are exported: only then is a trace context stored with a mirror row or sent upstream. */
export function isTraceExporting(): boolean {
  return shared.__paymentsTracer !== undefined;
}

type TSpanStarter = Pick<Tracer, "startSpan">;

/** `tracer` records for the exporting SDK, whose provider is not registered globally (see spanContexts). */
export function markTraceExporting(tracer: TSpanStarter | undefined): void {
  shared.__paymentsTracer = tracer;
}

type TSpanOptions = { kind?: SpanKind; parent?: Context; links?: Link[] };

// This app's span context, kept apart from OpenTelemetry's global one: Next.js traces its own steps whenever that
// one holds a recording span (or a tracer provider is registered), a context switch and promise chain per step.
shared.__paymentsSpanContexts ??= new AsyncLocalStorage<Context>();
const spanContexts = shared.__paymentsSpanContexts;

function activeContext(): Context {
  return spanContexts.getStore() ?? ROOT_CONTEXT;
}

const unrecorded = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** Without export nothing records this app's spans, so none is started and no context is switched. */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  options: TSpanOptions = {},
): Promise<T> {
  const tracer = shared.__paymentsTracer;
  if (!tracer) return fn(unrecorded);
  const parent = options.parent ?? activeContext();
  const span = tracer.startSpan(name, { attributes, kind: options.kind, links: options.links }, parent);
  return spanContexts.run(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** For a span with no children (an SQL statement): not made active, so no context switch is paid. */
export async function withLeafSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
  const tracer = shared.__paymentsTracer;
  if (!tracer) return fn();
  const span = tracer.startSpan(name, { attributes }, activeContext());
  try {
    return await fn();
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

/** `span` parents what the rest of this call and all it schedules start (a request event has no callback). */
export function enterSpan(span: Span, parent: Context = ROOT_CONTEXT): void {
  spanContexts.enterWith(trace.setSpan(parent, span));
}

export function startSpan(name: string, options: SpanOptions, parent: Context = ROOT_CONTEXT): Span | null {
  return shared.__paymentsTracer?.startSpan(name, options, parent) ?? null;
}

/** The active span's W3C traceparent, to store beside a row a later, separate request continues (a webhook). */
export function activeTraceParent(): string | null {
  if (!isTraceExporting()) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(activeContext(), carrier);
  return carrier.traceparent ?? null;
}

export function contextOfTraceParent(traceParent: string | null | undefined): Context | undefined {
  if (!traceParent) return undefined;
  const extracted = propagation.extract(ROOT_CONTEXT, { traceparent: traceParent });
  const spanContext = trace.getSpanContext(extracted);
  return spanContext && isSpanContextValid(spanContext) ? extracted : undefined;
}

export function injectTraceHeaders(headers: Record<string, string>): void {
  if (isTraceExporting()) propagation.inject(activeContext(), headers);
}

/** The active span's context, when one is recording (a request's span, to link from another trace). */
export function activeSpanContext(): SpanContext | undefined {
  const spanContext = trace.getSpanContext(activeContext());
  return spanContext && isSpanContextValid(spanContext) ? spanContext : undefined;
}

export function setActiveSpanAttributes(attributes: Attributes): void {
  if (isTraceExporting()) trace.getSpan(activeContext())?.setAttributes(attributes);
}

/** For pino's mixin: the active span's ids, when one is recording. */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  const spanContext = activeSpanContext();
  return spanContext && { traceId: spanContext.traceId, spanId: spanContext.spanId };
}
