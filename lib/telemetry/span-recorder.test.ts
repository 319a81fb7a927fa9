import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BatchSpanProcessor, type ReadableSpan, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SpanRecorder } from "./span-recorder";

type TOtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status: { code?: number; message?: string };
  links: { traceId: string; spanId: string }[];
};

// A collector on loopback: what the SDK's own OTLP/HTTP exporter sends for the recorder's spans.
const received: { resource: { attributes: { key: string }[] }; spans: TOtlpSpan[] }[] = [];
let collector: http.Server;
let processor: BatchSpanProcessor;
let recorder: SpanRecorder;

beforeAll(async () => {
  collector = http.createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    for (const resourceSpans of JSON.parse(body).resourceSpans)
      for (const scopeSpans of resourceSpans.scopeSpans)
        received.push({ resource: resourceSpans.resource, spans: scopeSpans.spans });
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  collector.listen(0, "127.0.0.1");
  await once(collector, "listening");
  const url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
  processor = new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) });
  const probe = new TracerProvider({}).getTracer("span-recorder-test").startSpan("resource") as object;
  const { resource, instrumentationScope } = probe as ReadableSpan;
  recorder = new SpanRecorder({ resource, instrumentationScope, processors: [processor] });
});

afterAll(async () => {
  await processor.shutdown();
  await new Promise<void>((resolve) => collector.close(() => resolve()));
});

beforeEach(() => {
  received.length = 0;
});

async function exported(): Promise<TOtlpSpan[]> {
  await processor.forceFlush();
  return received.flatMap((each) => each.spans);
}

// Span times come from the monotonic clock anchored at process start (performance.timeOrigin), which drifts from
// Date.now() by a few milliseconds on a busy machine.
const clockSkewNs = 50_000_000n;

describe("the span recorder, through the SDK's batch processor and OTLP exporter", () => {
  it("exports a parent and its child with ids, times, attributes, status, kind and the SDK's resource", async () => {
    const before = BigInt(Date.now()) * 1_000_000n;
    const parent = recorder.startSpan(
      "GET /pix",
      { kind: SpanKind.SERVER, attributes: { "http.request.method": "GET" } },
      ROOT_CONTEXT,
    );
    const child = recorder.startSpan(
      "db SELECT",
      { attributes: { "db.operation.name": "SELECT", skipped: undefined } },
      trace.setSpan(ROOT_CONTEXT, parent),
    );
    child.setStatus({ code: SpanStatusCode.ERROR, message: "DriverAdapterError" });
    child.end();
    parent.setAttributes({ "http.response.status_code": 500 });
    parent.updateName("GET /pix/new");
    parent.end();
    parent.setAttribute("after.end", true);
    const after = BigInt(Date.now()) * 1_000_000n;

    const spans = await exported();
    expect(spans.map((span) => span.name).sort()).toEqual(["GET /pix/new", "db SELECT"]);
    const root = spans.find((span) => span.name === "GET /pix/new")!;
    const leaf = spans.find((span) => span.name === "db SELECT")!;
    expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(root.parentSpanId).toBeFalsy();
    expect(leaf.traceId).toBe(root.traceId);
    expect(leaf.parentSpanId).toBe(root.spanId);
    expect(root.kind).toBe(2);
    expect(leaf.kind).toBe(1);
    for (const span of spans) {
      expect(BigInt(span.startTimeUnixNano)).toBeGreaterThanOrEqual(before - clockSkewNs);
      expect(BigInt(span.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(span.startTimeUnixNano));
      expect(BigInt(span.endTimeUnixNano)).toBeLessThanOrEqual(after + clockSkewNs);
    }
    expect(root.attributes.map((each) => each.key).sort()).toEqual([
      "http.request.method",
      "http.response.status_code",
    ]);
    expect(leaf.attributes).toEqual([{ key: "db.operation.name", value: { stringValue: "SELECT" } }]);
    expect(leaf.status).toEqual({ code: 2, message: "DriverAdapterError" });
    expect(received[0]!.resource.attributes.map((each) => each.key)).toContain("service.name");
  });

  it("continues a caller's sampled trace, and records nothing under a caller that did not sample", async () => {
    const caller = (traceId: string, traceFlags: TraceFlags) =>
      trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: "00f067aa0ba902b7", traceFlags, isRemote: true });
    const sampled = caller("4bf92f3577b34da6a3ce929d0e0e4736", TraceFlags.SAMPLED);
    recorder.startSpan("sampled", {}, sampled).end();
    const notSampled = caller("5bf92f3577b34da6a3ce929d0e0e4736", TraceFlags.NONE);
    const unrecorded = recorder.startSpan("not sampled", {}, notSampled);
    expect(unrecorded.isRecording()).toBe(false);
    expect(unrecorded.spanContext().traceId).toBe("5bf92f3577b34da6a3ce929d0e0e4736");
    recorder.startSpan("its child", {}, trace.setSpan(ROOT_CONTEXT, unrecorded)).end();
    unrecorded.end();

    const spans = await exported();
    expect(spans.map((span) => [span.name, span.traceId, span.parentSpanId])).toEqual([
      ["sampled", "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"],
    ]);
  });

  it("keeps links and gives every span its own id", async () => {
    const linked = recorder.startSpan("linked", {}, ROOT_CONTEXT);
    const ids = new Set<string>();
    for (let index = 0; index < 5000; index += 1)
      ids.add(recorder.startSpan("id", {}, ROOT_CONTEXT).spanContext().spanId);
    expect(ids.size).toBe(5000);
    const span = recorder.startSpan("with link", { links: [{ context: linked.spanContext() }] }, ROOT_CONTEXT);
    span.end();
    const [exportedSpan] = (await exported()).filter((each) => each.name === "with link");
    expect(exportedSpan!.links).toEqual([
      expect.objectContaining({ traceId: linked.spanContext().traceId, spanId: linked.spanContext().spanId }),
    ]);
  });
});
