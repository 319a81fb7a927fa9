import "server-only";
import { randomFillSync } from "node:crypto";
import {
  type Attributes,
  type AttributeValue,
  type Context,
  type Exception,
  type HrTime,
  isSpanContextValid,
  type Link,
  type Span,
  type SpanContext,
  SpanKind,
  type SpanOptions,
  type SpanStatus,
  SpanStatusCode,
  type TimeInput,
  TraceFlags,
  trace,
} from "@opentelemetry/api";
import type { ReadableSpan, SpanProcessor, TimedEvent } from "@opentelemetry/sdk-trace";

// Span ids cut from one pooled hex string of random bytes: a syscall and a hex conversion per few hundred ids.
const idPool = Buffer.allocUnsafe(4096);
let idHex = "";
let idOffset = 0;

const invalidIds = { 16: "0".repeat(16), 32: "0".repeat(32) };

function randomId(hexLength: 16 | 32): string {
  for (;;) {
    if (idOffset + hexLength > idHex.length) {
      idHex = randomFillSync(idPool).toString("hex");
      idOffset = 0;
    }
    const id = idHex.slice(idOffset, idOffset + hexLength);
    idOffset += hexLength;
    if (id !== invalidIds[hexLength]) return id;
  }
}

const nowMs = () => performance.timeOrigin + performance.now();

function toHrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  const nanos = Math.round((ms - seconds * 1000) * 1e6);
  return nanos >= 1e9 ? [seconds + 1, nanos - 1e9] : [seconds, nanos];
}

function toEpochMs(time: TimeInput | undefined): number {
  if (time === undefined) return nowMs();
  if (typeof time === "number") return time < performance.timeOrigin ? performance.timeOrigin + time : time;
  if (time instanceof Date) return time.getTime();
  return time[0] * 1000 + time[1] / 1e6;
}

type TSpanSource = Pick<ReadableSpan, "resource" | "instrumentationScope"> & { processors: SpanProcessor[] };

/** One recording span, in the shape the SDK's processors and OTLP exporters read (ReadableSpan). */
class RecordedSpan implements Span, ReadableSpan {
  readonly attributes: Attributes = {};
  readonly links: Link[];
  readonly events: TimedEvent[] = [];
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly resource: ReadableSpan["resource"];
  readonly instrumentationScope: ReadableSpan["instrumentationScope"];
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  ended = false;
  private readonly startMs = nowMs();
  private endMs = 0;

  constructor(
    public name: string,
    readonly kind: SpanKind,
    private readonly context: SpanContext,
    readonly parentSpanContext: SpanContext | undefined,
    attributes: Attributes | undefined,
    links: Link[] | undefined,
    private readonly source: TSpanSource,
  ) {
    if (attributes) this.setAttributes(attributes);
    this.links = links ? [...links] : [];
    this.resource = source.resource;
    this.instrumentationScope = source.instrumentationScope;
  }

  get startTime(): HrTime {
    return toHrTime(this.startMs);
  }
  get endTime(): HrTime {
    return toHrTime(this.endMs);
  }
  get duration(): HrTime {
    return toHrTime(Math.max(0, this.endMs - this.startMs));
  }

  spanContext(): SpanContext {
    return this.context;
  }
  setAttribute(key: string, value: AttributeValue): this {
    if (!this.ended && value !== undefined && value !== null) this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    for (const key in attributes) {
      const value = attributes[key];
      if (value !== undefined) this.setAttribute(key, value);
    }
    return this;
  }
  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    const isTime =
      typeof attributesOrTime === "number" || Array.isArray(attributesOrTime) || attributesOrTime instanceof Date;
    const attributes = isTime ? {} : (attributesOrTime as Attributes | undefined);
    const at = isTime ? (attributesOrTime as TimeInput) : time;
    this.events.push({ name, attributes, time: toHrTime(toEpochMs(at)), droppedAttributesCount: 0 });
    return this;
  }
  addLink(link: Link): this {
    if (!this.ended) this.links.push(link);
    return this;
  }
  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }
  setStatus(status: SpanStatus): this {
    // As the SDK: UNSET never overrides, and OK is final.
    if (!this.ended && status.code !== SpanStatusCode.UNSET && this.status.code !== SpanStatusCode.OK)
      this.status = { ...status };
    return this;
  }
  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }
  isRecording(): boolean {
    return !this.ended;
  }
  recordException(exception: Exception, time?: TimeInput): void {
    const error = typeof exception === "string" ? { message: exception } : exception;
    const attributes: Attributes = { "exception.message": error.message ?? String(exception) };
    if (typeof error === "object" && error.name) attributes["exception.type"] = error.name;
    if (typeof error === "object" && error.stack) attributes["exception.stacktrace"] = error.stack;
    this.addEvent("exception", attributes, time);
  }
  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.endMs = endTime === undefined ? nowMs() : toEpochMs(endTime);
    for (const processor of this.source.processors) processor.onEnding?.(this);
    this.ended = true;
    for (const processor of this.source.processors) processor.onEnd(this);
  }
}

// Ended spans go to the SDK's processors: its tracer costs a request far more per span (docs/operations.md). Sampling
// is the SDK's default, parent-based: always on for a new trace, off under a caller that did not sample.
export class SpanRecorder {
  constructor(private readonly source: TSpanSource) {}

  startSpan(name: string, options: SpanOptions, parent: Context): Span {
    const parentContext = trace.getSpanContext(parent);
    const hasParent = parentContext !== undefined && isSpanContextValid(parentContext);
    if (hasParent && (parentContext.traceFlags & TraceFlags.SAMPLED) === 0)
      return trace.wrapSpanContext({
        traceId: parentContext.traceId,
        spanId: randomId(16),
        traceFlags: TraceFlags.NONE,
      });
    const context: SpanContext = {
      traceId: hasParent ? parentContext.traceId : randomId(32),
      spanId: randomId(16),
      traceFlags: TraceFlags.SAMPLED,
      traceState: hasParent ? parentContext.traceState : undefined,
    };
    const span = new RecordedSpan(
      name,
      options.kind ?? SpanKind.INTERNAL,
      context,
      hasParent ? parentContext : undefined,
      options.attributes,
      options.links,
      this.source,
    );
    for (const processor of this.source.processors) processor.onStart(span, parent);
    return span;
  }
}
