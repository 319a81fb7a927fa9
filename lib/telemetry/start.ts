import "server-only";
import { context, ProxyTracerProvider, trace } from "@opentelemetry/api";
import { OTLPTraceExporter as OTLPJsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { NodeSDK } from "@opentelemetry/sdk-node";
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type ReadableSpan,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace";
import { z } from "zod";
import { isTelemetryDisabled } from "./metrics";
import { installRequestTelemetry } from "./request-telemetry";
import type { TRouteTemplates } from "./route-template";
import { SpanRecorder } from "./span-recorder";
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

const ZBatchVariable = z.coerce.number().int().positive().optional();

/** The standard batch span processor variables (the SDK's processor takes options only); an invalid one is ignored. */
export function batchOptionsFromEnv(env: Record<string, string | undefined>) {
  const read = (name: string) => ZBatchVariable.safeParse(env[name]?.trim() || undefined).data;
  return {
    scheduledDelayMillis: read("OTEL_BSP_SCHEDULE_DELAY"),
    exportTimeoutMillis: read("OTEL_BSP_EXPORT_TIMEOUT"),
    maxQueueSize: read("OTEL_BSP_MAX_QUEUE_SIZE"),
    maxExportBatchSize: read("OTEL_BSP_MAX_EXPORT_BATCH_SIZE"),
  };
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
  const processors =
    options.spanProcessors ??
    exportersFromEnv(env).map((exporter) => new BatchSpanProcessor({ exporter, ...batchOptionsFromEnv(env) }));
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || "payments-dashboard",
    spanProcessors: processors,
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
  // The resource the SDK detected, read from a span of its own that is never ended, so never exported.
  const probe: Partial<ReadableSpan> = provider.getTracer(appTracerName).startSpan("resource") as object;
  const { resource, instrumentationScope } = probe;
  if (!resource || !instrumentationScope) throw new Error("the OpenTelemetry SDK's spans carry no resource");
  markTraceExporting(new SpanRecorder({ resource, instrumentationScope, processors }));
  shared.__paymentsTelemetry = {
    shutdown: async () => {
      markTraceExporting(undefined);
      await sdk.shutdown();
    },
  };
  return shared.__paymentsTelemetry;
}
