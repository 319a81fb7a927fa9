import "server-only";
import { context, ProxyTracerProvider, trace } from "@opentelemetry/api";
import { OTLPTraceExporter as OTLPJsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { NodeSDK } from "@opentelemetry/sdk-node";
import {
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace";
import { isTelemetryDisabled } from "./metrics";
import { installRequestTelemetry } from "./request-telemetry";
import type { TRouteTemplates } from "./route-template";
import { appTracerName, isTraceExportRequested, markTraceExporting } from "./tracing";

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

type TStartOptions = {
  spanProcessors?: SpanProcessor[];
  env?: Record<string, string | undefined>;
  routes?: TRouteTemplates;
};

const shared = globalThis as typeof globalThis & { __paymentsTelemetry?: { shutdown: () => Promise<void> } };

/** Once per process: the request metric, and with export requested (or `spanProcessors`, in tests) the Node SDK. */
export function startTelemetry(options: TStartOptions = {}): { shutdown: () => Promise<void> } {
  if (shared.__paymentsTelemetry) return shared.__paymentsTelemetry;
  const env = options.env ?? process.env;
  shared.__paymentsTelemetry = { shutdown: async () => {} };
  if (isTelemetryDisabled(env)) return shared.__paymentsTelemetry;
  installRequestTelemetry(options.routes);
  if (options.spanProcessors === undefined && !isTraceExportRequested(env)) return shared.__paymentsTelemetry;
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || "payments-dashboard",
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors:
      options.spanProcessors ?? exportersFromEnv(env).map((exporter) => new BatchSpanProcessor({ exporter })),
    instrumentations: [],
    // Traces only: metrics are Prometheus's (/api/metrics), logs pino's; the SDK would otherwise add OTLP exporters.
    metricReaders: [],
    logRecordProcessors: [],
  });
  // The SDK builds the provider from the OTEL_* variables, then it is taken back from the global API: with any
  // provider registered, Next.js traces each of its internal steps, which cost more than all of this app's spans.
  sdk.start();
  const global = trace.getTracerProvider();
  const provider = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  trace.disable();
  context.disable();
  markTraceExporting(provider.getTracer(appTracerName));
  shared.__paymentsTelemetry = {
    shutdown: async () => {
      markTraceExporting(undefined);
      await sdk.shutdown();
    },
  };
  return shared.__paymentsTelemetry;
}
