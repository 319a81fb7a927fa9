import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLiveConnection, matchesFilter, type TLiveEvent } from "./live-connection";

class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readyState = 0;
  isClosed = false;
  private handlers = new Map<string, ((event: { data?: string }) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, handler: (event: { data?: string }) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }
  close() {
    this.isClosed = true;
    this.readyState = 2;
  }
  fire(type: string, data?: string) {
    if (type === "open") this.readyState = 1;
    for (const handler of this.handlers.get(type) ?? []) handler({ data });
  }
}

describe("createLiveConnection", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.instances = [];
  });
  afterEach(() => vi.useRealTimers());

  const open = () =>
    createLiveConnection({
      url: "/api/events",
      createEventSource: (url) => new FakeEventSource(url) as unknown as EventSource,
      idleCloseMs: 1_000,
      retryDelaysMs: [100, 500],
    });

  it("shares one EventSource between listeners and passes valid changes on", () => {
    const connection = open();
    const first: TLiveEvent[] = [];
    const second: TLiveEvent[] = [];
    connection.subscribe((event) => first.push(event));
    connection.subscribe((event) => second.push(event));
    expect(FakeEventSource.instances).toHaveLength(1);
    const source = FakeEventSource.instances[0]!;
    source.fire("open");
    expect(connection.isOpen()).toBe(true);
    source.fire("change", '{"kind":"pix_charge","id":"TX1"}');
    source.fire("change", '{"kind":"unknown","id":"x"}');
    source.fire("change", "not json");
    expect(first).toEqual([{ type: "resync" }, { type: "change", change: { kind: "pix_charge", id: "TX1" } }]);
    expect(second).toEqual(first);
  });

  it("asks listeners to resync on every open: the first, and after a drop", () => {
    const connection = open();
    const events: TLiveEvent[] = [];
    connection.subscribe((event) => events.push(event));
    const source = FakeEventSource.instances[0]!;
    source.fire("open");
    source.fire("error");
    expect(connection.isOpen()).toBe(false);
    source.fire("open");
    expect(events).toEqual([{ type: "resync" }, { type: "resync" }]);
  });

  it("reconnects with backoff when the browser gives up", () => {
    const connection = open();
    connection.subscribe(() => {});
    const first = FakeEventSource.instances[0]!;
    first.readyState = 2;
    first.fire("error");
    expect(first.isClosed).toBe(true);
    vi.advanceTimersByTime(99);
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.instances).toHaveLength(2);
    const second = FakeEventSource.instances[1]!;
    second.readyState = 2;
    second.fire("error");
    vi.advanceTimersByTime(499);
    expect(FakeEventSource.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.instances).toHaveLength(3);
  });

  it("replays the last seconds to a listener that joins a running stream, the open's resync included", () => {
    const connection = open();
    connection.subscribe(() => {});
    const source = FakeEventSource.instances[0]!;
    source.fire("open");
    vi.advanceTimersByTime(6_000);
    source.fire("change", '{"kind":"pix_charge","id":"TX1"}');
    const late: TLiveEvent[] = [];
    connection.subscribe((event) => late.push(event));
    expect(late).toEqual([{ type: "resync" }, { type: "change", change: { kind: "pix_charge", id: "TX1" } }]);

    vi.advanceTimersByTime(5_000);
    const later: TLiveEvent[] = [];
    connection.subscribe((event) => later.push(event));
    expect(later).toEqual([{ type: "change", change: { kind: "pix_charge", id: "TX1" } }]);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it("closes the stream a while after the last listener leaves, not during a navigation", () => {
    const connection = open();
    const unsubscribe = connection.subscribe(() => {});
    const source = FakeEventSource.instances[0]!;
    unsubscribe();
    vi.advanceTimersByTime(500);
    const again = connection.subscribe(() => {});
    vi.advanceTimersByTime(2_000);
    expect(source.isClosed).toBe(false);
    again();
    vi.advanceTimersByTime(1_000);
    expect(source.isClosed).toBe(true);
    connection.subscribe(() => {});
    expect(FakeEventSource.instances).toHaveLength(2);
  });
});

describe("matchesFilter", () => {
  const change = (kind: "pix_charge" | "pix_refund", id: string): TLiveEvent => ({
    type: "change",
    change: { kind, id },
  });

  it("matches by kind, then by id when one is given; a resync matches everyone", () => {
    expect(matchesFilter(change("pix_charge", "A"), { kinds: ["pix_charge"] })).toBe(true);
    expect(matchesFilter(change("pix_refund", "A"), { kinds: ["pix_charge"] })).toBe(false);
    expect(matchesFilter(change("pix_charge", "A"), { kinds: ["pix_charge"], id: "B" })).toBe(false);
    expect(matchesFilter({ type: "resync" }, { kinds: ["pix_charge"], id: "B" })).toBe(true);
  });
});
