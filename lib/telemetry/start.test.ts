import { type Span, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { startTelemetry } from "./start";
import { withSpan } from "./tracing";

const exporter = new InMemorySpanExporter();
startTelemetry({ spanProcessors: [new SimpleSpanProcessor({ exporter })], env: {} });

const next = () => trace.getTracer("next.js", "16");
const nextSpan = <T>(name: string, type: string, fn: (span: Span) => T) =>
  next().startActiveSpan(name, { attributes: { "next.span_type": type } }, fn);

describe("Next.js's spans while exporting", () => {
  it("records the request root, skips its internal spans and keeps ours children of the root", async () => {
    await nextSpan("GET /api/pix/charges/[txid]", "BaseServer.handleRequest", async (root) => {
      await nextSpan("executing api route (app)", "AppRouteRouteHandlers.runHandler", async (inner) => {
        expect(inner.isRecording()).toBe(false);
        await withSpan("route handler", {}, async () => {});
        inner.end();
      });
      next()
        .startSpan("start response", { attributes: { "next.span_type": "NextNodeServer.startResponse" } })
        .end();
      root.end();
    });
    // The SDK's resource detection is asynchronous: export waits for it.
    await expect.poll(() => exporter.getFinishedSpans().length).toBe(2);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(["route handler", "GET /api/pix/charges/[txid]"]);
    const [handler, root] = spans;
    expect(handler?.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
    expect(handler?.spanContext().traceId).toBe(root?.spanContext().traceId);
  });
});
