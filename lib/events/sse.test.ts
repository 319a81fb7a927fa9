import { afterEach, describe, expect, it, vi } from "vitest";
import { permissionsOfRole } from "@/lib/auth/roles";
import type { TChangeListener } from "./bus";
import { mayHearChange } from "./change";
import { createChangeStream } from "./sse";

function fakeBus() {
  const listeners = new Set<TChangeListener>();
  return {
    listeners,
    subscribe: (listener: TChangeListener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit: (...args: Parameters<TChangeListener>) => {
      for (const listener of listeners) listener(...args);
    },
  };
}

async function readText(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value, done } = await reader.read();
  return done ? "<end>" : new TextDecoder().decode(value);
}

describe("createChangeStream", () => {
  afterEach(() => vi.useRealTimers());

  it("announces a reconnect delay, then sends changes and resyncs as SSE events", async () => {
    const bus = fakeBus();
    const reader = createChangeStream({ subscribe: bus.subscribe, signal: new AbortController().signal }).getReader();
    expect(await readText(reader)).toBe("retry: 2000\n: connected\n\n");
    bus.emit({ type: "change", change: { kind: "pix_charge", id: "TX1" } });
    expect(await readText(reader)).toBe('event: change\ndata: {"kind":"pix_charge","id":"TX1"}\n\n');
    bus.emit({ type: "resync" });
    expect(await readText(reader)).toBe("event: resync\ndata: {}\n\n");
    await reader.cancel();
    expect(bus.listeners.size).toBe(0);
  });

  it("tells Operations nothing of resources its role lacks: saved cards and POS sales reach Administrators alone", async () => {
    const changes = [
      { kind: "card_token", id: "TOKEN-1" },
      { kind: "pos_sale", id: "SALE-1" },
      { kind: "pix_charge", id: "TX2" },
    ] as const;
    const heard = async (roleId: "administrator" | "operations") => {
      const bus = fakeBus();
      const reader = createChangeStream({
        subscribe: bus.subscribe,
        signal: new AbortController().signal,
        mayHear: (change) => mayHearChange({ permissions: permissionsOfRole(roleId, null) }, change),
      }).getReader();
      await readText(reader);
      for (const change of changes) bus.emit({ type: "change", change });
      bus.emit({ type: "resync" });
      const texts: string[] = [];
      for (let text = await readText(reader); ; text = await readText(reader)) {
        texts.push(text);
        if (text.startsWith("event: resync")) break;
      }
      await reader.cancel();
      return texts;
    };
    expect(await heard("operations")).toEqual([
      'event: change\ndata: {"kind":"pix_charge","id":"TX2"}\n\n',
      "event: resync\ndata: {}\n\n",
    ]);
    expect(await heard("administrator")).toHaveLength(changes.length + 1);
  });

  it("tells only those who see the alerts bell of an alert incident", () => {
    const incident = { kind: "alert_incident", id: "INCIDENT-1" } as const;
    const hears = (roleId: "operations" | "support") =>
      mayHearChange({ permissions: permissionsOfRole(roleId, null) }, incident);
    expect(hears("operations")).toBe(true);
    expect(hears("support")).toBe(false);
  });

  it("sends a heartbeat comment and ends after its lifetime", async () => {
    vi.useFakeTimers();
    const bus = fakeBus();
    const reader = createChangeStream({
      subscribe: bus.subscribe,
      signal: new AbortController().signal,
      heartbeatMs: 1_000,
      lifetimeMs: 2_500,
    }).getReader();
    await readText(reader);
    vi.advanceTimersByTime(1_000);
    expect(await readText(reader)).toBe(": heartbeat\n\n");
    vi.advanceTimersByTime(1_000);
    expect(await readText(reader)).toBe(": heartbeat\n\n");
    vi.advanceTimersByTime(500);
    expect(await readText(reader)).toBe("<end>");
    expect(bus.listeners.size).toBe(0);
  });

  it("closes and unsubscribes when the request is aborted", async () => {
    const bus = fakeBus();
    const abort = new AbortController();
    const reader = createChangeStream({ subscribe: bus.subscribe, signal: abort.signal }).getReader();
    await readText(reader);
    abort.abort();
    expect(await readText(reader)).toBe("<end>");
    expect(bus.listeners.size).toBe(0);
    bus.emit({ type: "change", change: { kind: "pix_charge", id: "late" } });
  });
});
