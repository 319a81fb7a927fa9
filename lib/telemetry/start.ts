import "server-only";
import {
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  propagation,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerProvider as TTracerProvider,
  trace,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter as OTLPJsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { NodeSDK } from "@opentelemetry/sdk-node";
import {
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
  SamplingDecision,
  type SpanExporter,
  type SpanProcessor,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { isTelemetryDisabled, observeHttpRequest } from "./metrics";
import { appTracerName, isTraceExportRequested, markTraceExporting } from "./tracing";

// Next.js names its request root span so, and sets the route template on it when the request ends.
const requestSpanType = "BaseServer.handleRequest";

function isRequestRoot(span: ReadableSpan): boolean {
  return span.attributes["next.span_type"] === requestSpanType;
}

// The request latency histogram reads Next.js's own request spans, the one place that knows the route template.
const requestMetricsProcessor: SpanProcessor = {
  onStart: () => {},
  onEnd: (span) => {
    if (!isRequestRoot(span)) return;
    const { attributes } = span;
    const route = attributes["next.route"];
    // Proxy's pass of a request has no route; the render pass that follows is counted.
    if (typeof route !== "string") return;
    const seconds = span.duration[0] + span.duration[1] / 1e9;
    observeHttpRequest(
      route,
      String(attributes["http.method"] ?? ""),
      Number(attributes["http.status_code"] ?? 0),
      seconds,
    );
  },
  forceFlush: async () => {},
  shutdown: async () => {},
};

// Without export, only Next.js's request root is recorded (for the metric above); every other span is a no-op.
const requestRootsOnly: Sampler = {
  shouldSample: (_context, _traceId, _name, _kind, attributes) => ({
    decision:
      attributes?.["next.span_type"] === requestSpanType ? SamplingDecision.RECORD : SamplingDecision.NOT_RECORD,
  }),
  toString: () => "RequestRootsOnly",
};

const nextTracerName = "next.js";

// Next.js's internal spans under the request root (module loading, handler run, response start): half the exported
// bytes, read by nobody. Not started: the callback gets the active context, so spans inside stay the root's children.
function nextRequestRootsOnly(tracer: Tracer): Tracer {
  const skipped = (parent: Context) => trace.wrapSpanContext(trace.getSpanContext(parent) ?? INVALID_SPAN_CONTEXT);
  const isRoot = (options: SpanOptions | undefined) => options?.attributes?.["next.span_type"] === requestSpanType;
  return {
    startSpan: (name, options, parent = context.active()) =>
      isRoot(options) ? tracer.startSpan(name, options, parent) : skipped(parent),
    startActiveSpan: ((name: string, ...args: unknown[]) => {
      const fn = args.pop() as (span: Span) => unknown;
      const [options, parent] = args as [SpanOptions | undefined, Context | undefined];
      if (isRoot(options)) return tracer.startActiveSpan(name, options ?? {}, parent ?? context.active(), fn);
      return fn(skipped(parent ?? context.active()));
    }) as Tracer["startActiveSpan"],
  };
}

function withoutNextInternalSpans(provider: TTracerProvider): TTracerProvider {
  const wrapped = new Map<string, Tracer>();
  return {
    getTracer: (name, version, options) => {
      if (name !== nextTracerName) return provider.getTracer(name, version, options);
      const key = version ?? "";
      const known = wrapped.get(key);
      if (known) return known;
      const tracer = nextRequestRootsOnly(provider.getTracer(name, version, options));
      wrapped.set(key, tracer);
      return tracer;
    },
  };
}

// OTLP's default protocol: half the bytes of http/json for the same serializing time.
function isOtlpJson(env: Record<string, string | undefined>): boolean {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim();
  return protocol === "http/json";
}

function exportersFromEnv(env: Record<string, string | undefined>) {
  const names = (env.OTEL_TRACES_EXPORTER?.trim() || "otlp").split(",").map((name) => name.trim());
  return names.flatMap((name): SpanExporter[] => {
    if (name === "otlp") return [isOtlpJson(env) ? new OTLPJsonTraceExporter() : new OTLPTraceExporter()];
    if (name === "console") return [new ConsoleSpanExporter()];
    return [];
  });
}

type TStartOptions = { spanProcessors?: SpanProcessor[]; env?: Record<string, string | undefined> };

const shared = globalThis as typeof globalThis & { __paymentsTelemetry?: { shutdown: () => Promise<void> } };

/**
 * Registers a tracer provider once per process. With export requested (or `spanProcessors` given, as tests do)
 * the OpenTelemetry Node SDK runs with batch export; otherwise a provider records only request roots.
 */
export function startTelemetry(options: TStartOptions = {}): { shutdown: () => Promise<void> } {
  if (shared.__paymentsTelemetry) return shared.__paymentsTelemetry;
  const env = options.env ?? process.env;
  if (isTelemetryDisabled(env)) {
    shared.__paymentsTelemetry = { shutdown: async () => {} };
    return shared.__paymentsTelemetry;
  }
  const isExporting = options.spanProcessors !== undefined || isTraceExportRequested(env);
  if (isExporting) {
    const exportProcessors =
      options.spanProcessors ?? exportersFromEnv(env).map((exporter) => new BatchSpanProcessor({ exporter }));
    const sdk = new NodeSDK({
      serviceName: env.OTEL_SERVICE_NAME || "payments-dashboard",
      sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
      spanProcessors: [requestMetricsProcessor, ...exportProcessors],
      instrumentations: [],
      // Traces only: metrics are Prometheus's (/api/metrics), logs pino's; the SDK would otherwise add OTLP exporters.
      metricReaders: [],
      logRecordProcessors: [],
    });
    sdk.start();
    const global = trace.getTracerProvider();
    const provider = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
    if (global instanceof ProxyTracerProvider && env.NEXT_OTEL_VERBOSE !== "1")
      global.setDelegate(withoutNextInternalSpans(provider));
    markTraceExporting(true, provider.getTracer(appTracerName));
    shared.__paymentsTelemetry = { shutdown: () => sdk.shutdown() };
    return shared.__paymentsTelemetry;
  }
  const provider = new TracerProvider({ sampler: requestRootsOnly, spanProcessors: [requestMetricsProcessor] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  shared.__paymentsTelemetry = { shutdown: () => provider.shutdown() };
  return shared.__paymentsTelemetry;
}
