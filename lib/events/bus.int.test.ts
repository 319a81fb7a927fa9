import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPrismaClient } from "@/lib/db/client";
import { createPgliteTestDatabase } from "@/lib/testing/pglite";
import { testDatabaseUrl } from "@/lib/testing/test-database";
import { createChangeHub, publishChange, type TChangeEvent, type TChangeHub } from "./bus";
import { createChangeStream } from "./sse";

function collect(hub: TChangeHub): TChangeEvent[] {
  const events: TChangeEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return events;
}

// Notifications arrive on another connection a moment after commit.
const arrival = { timeout: 5_000, interval: 20 };

describe("change bus on PostgreSQL: two instances", () => {
  const url = testDatabaseUrl();
  // Two app instances: each has its own Prisma pool and its own listening connection.
  const first = { db: createPrismaClient({ kind: "postgres", url }), hub: createChangeHub({ kind: "postgres", url }) };
  const second = { db: createPrismaClient({ kind: "postgres", url }), hub: createChangeHub({ kind: "postgres", url }) };
  let firstEvents: TChangeEvent[];
  let secondEvents: TChangeEvent[];

  beforeAll(async () => {
    firstEvents = collect(first.hub);
    secondEvents = collect(second.hub);
    await Promise.all([first.hub.ready(), second.hub.ready()]);
  });

  afterAll(async () => {
    await Promise.all([first.hub.close(), second.hub.close(), first.db.$disconnect(), second.db.$disconnect()]);
  });

  it("delivers a change published by one instance to both", async () => {
    await publishChange({ kind: "pix_charge", id: "TXID-1" }, first.db);
    await vi.waitFor(() => {
      expect(firstEvents).not.toHaveLength(0);
      expect(secondEvents).not.toHaveLength(0);
    }, arrival);
    expect(secondEvents).toEqual([{ type: "change", change: { kind: "pix_charge", id: "TXID-1" } }]);
    expect(firstEvents).toEqual(secondEvents);
  });

  it("delivers a change made in a transaction at commit, and never on rollback", async () => {
    firstEvents.length = 0;
    await expect(
      second.db.$transaction(async (tx) => {
        await publishChange({ kind: "pix_refund", id: "rolled-back" }, tx);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    await second.db.$transaction(async (tx) => {
      await publishChange({ kind: "pix_refund", id: "committed" }, tx);
      await publishChange({ kind: "pix_refund", id: "committed" }, tx);
    });
    // PostgreSQL delivers notifications in commit order: once a later one is in, nothing else
    // from the transactions above can still arrive.
    await publishChange({ kind: "pix_refund", id: "after" }, second.db);
    await expect
      .poll(() => firstEvents.at(-1), arrival)
      .toEqual({
        type: "change",
        change: { kind: "pix_refund", id: "after" },
      });
    expect(firstEvents).toEqual([
      { type: "change", change: { kind: "pix_refund", id: "committed" } },
      { type: "change", change: { kind: "pix_refund", id: "after" } },
    ]);
  });

  it("stops delivering to a listener that unsubscribed", async () => {
    const events: TChangeEvent[] = [];
    const unsubscribe = first.hub.subscribe((event) => events.push(event));
    unsubscribe();
    secondEvents.length = 0;
    await publishChange({ kind: "reconciliation", id: "run-1" }, first.db);
    // Wait for this very change (an earlier test's may still be arriving), so it cannot land in the next test.
    await expect
      .poll(() => secondEvents, arrival)
      .toContainEqual({ type: "change", change: { kind: "reconciliation", id: "run-1" } });
    expect(events).toEqual([]);
  });

  it("ignores a notification that is not a change, and rejects publishing one", async () => {
    secondEvents.length = 0;
    await first.db.$executeRaw`SELECT pg_notify('app_changes', '{"kind":"nope","id":"x"}')`;
    await publishChange({ kind: "payment_link", id: "link-1" }, first.db);
    await expect
      .poll(() => secondEvents, arrival)
      .toContainEqual({ type: "change", change: { kind: "payment_link", id: "link-1" } });
    // The invalid notification was sent first, on the same connection: had it been let through, it is here by now.
    expect(secondEvents.filter((event) => event.type === "change" && event.change.kind !== "payment_link")).toEqual([]);
    await expect(publishChange({ kind: "nope" as "pix_charge", id: "x" }, first.db)).rejects.toThrow();
  });

  it("reconnects after the listening connection is killed and tells listeners to resync", async () => {
    secondEvents.length = 0;
    await first.db
      .$executeRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'app_changes_listener' AND datname = current_database()`;
    await expect.poll(() => secondEvents, { ...arrival, timeout: 10_000 }).toContainEqual({ type: "resync" });
    await publishChange({ kind: "webhook_delivery", id: "d-1" }, first.db);
    await expect
      .poll(() => secondEvents, arrival)
      .toContainEqual({ type: "change", change: { kind: "webhook_delivery", id: "d-1" } });
  });
});

describe("change bus with a wait before emitting (a read replica catching up)", () => {
  it("holds changes until the wait ends, then passes them on in order, those that came meanwhile with them", async () => {
    const url = testDatabaseUrl();
    const db = createPrismaClient({ kind: "postgres", url });
    const waits: Array<() => void> = [];
    const hub = createChangeHub(
      { kind: "postgres", url },
      { beforeEmit: () => new Promise<void>((resolve) => waits.push(resolve)) },
    );
    try {
      const events = collect(hub);
      await hub.ready();
      await publishChange({ kind: "pix_charge", id: "HELD-1" }, db);
      await expect.poll(() => waits.length, arrival).toBe(1);
      await publishChange({ kind: "pix_charge", id: "HELD-2" }, db);
      await publishChange({ kind: "pix_charge", id: "HELD-3" }, db);
      // Both have arrived by now: notifications come in commit order, and the marker is the last one.
      await publishChange({ kind: "reconciliation", id: "marker" }, db);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(events).toEqual([]);
      expect(waits).toHaveLength(1);
      waits[0]!();
      await expect.poll(() => waits.length, arrival).toBe(2);
      expect(events).toEqual([{ type: "change", change: { kind: "pix_charge", id: "HELD-1" } }]);
      waits[1]!();
      await expect
        .poll(() => events.map((event) => (event.type === "change" ? event.change.id : event.type)), arrival)
        .toEqual(["HELD-1", "HELD-2", "HELD-3", "marker"]);
      expect(waits).toHaveLength(2);
    } finally {
      for (const resolve of waits) resolve();
      await hub.close();
      await db.$disconnect();
    }
  });
});

describe("change bus on PGlite", () => {
  it("delivers NOTIFY to LISTEN on the same embedded instance, at commit", async () => {
    const database = await createPgliteTestDatabase();
    const hub = createChangeHub({ kind: "pglite", pglite: database.pglite });
    try {
      const events = collect(hub);
      await hub.ready();
      await database.db.$transaction(async (tx) => {
        await publishChange({ kind: "pix_charge", id: "TXID-2" }, tx);
        expect(events).toEqual([]);
      });
      await expect
        .poll(() => events, arrival)
        .toEqual([{ type: "change", change: { kind: "pix_charge", id: "TXID-2" } }]);
    } finally {
      await hub.close();
      await database.close();
    }
  });
});

describe("SSE stream over the PostgreSQL bus", () => {
  it("streams a change published by another instance", async () => {
    const url = testDatabaseUrl();
    const hub = createChangeHub({ kind: "postgres", url });
    const publisher = createPrismaClient({ kind: "postgres", url });
    const abort = new AbortController();
    try {
      const reader = createChangeStream({ subscribe: hub.subscribe, signal: abort.signal }).getReader();
      await reader.read();
      await hub.ready();
      await publishChange({ kind: "webhook_delivery", id: "delivery-7" }, publisher);
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toBe(
        'event: change\ndata: {"kind":"webhook_delivery","id":"delivery-7"}\n\n',
      );
      abort.abort();
      expect((await reader.read()).done).toBe(true);
    } finally {
      await hub.close();
      await publisher.$disconnect();
    }
  });
});
