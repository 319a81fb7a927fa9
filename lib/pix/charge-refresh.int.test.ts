import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db, getDatabaseConnection } from "@/lib/db/client";
import { createChangeHub, publishChange, type TChangeEvent, type TChangeHub } from "@/lib/events/bus";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import type { TTestBackend } from "@/lib/testing/test-database";
import type { TSandbox } from "@/sandbox/test/harness";
import { createPixCharge, getPixChargeView } from "./charges";
import { findMirroredPixCharge } from "./mirror";
import { ZCreatePixChargeInput } from "./schemas";

// The charge page's read (`?refresh=1`, and its polling): when upstream has not changed, the mirror is compared
// and left alone, with no UPDATE and no change notification. On the app's own database, PostgreSQL then PGlite.
describe.each<TTestBackend>(["postgres", "pglite"])("refreshing a Pix charge (%s)", (backend) => {
  let sandbox: TSandbox;
  let hub: TChangeHub;
  let embedded: { close: () => Promise<void> } | undefined;
  const postgresUrl = process.env.DATABASE_URL;
  const events: TChangeEvent[] = [];

  beforeAll(async () => {
    if (backend === "pglite") embedded = await useEmbeddedDefaultDatabase();
    sandbox = await startGatewaySandbox();
    hub = createChangeHub(getDatabaseConnection());
    hub.subscribe((event) => events.push(event));
    await hub.ready();
  });

  afterAll(async () => {
    await hub?.close();
    await sandbox?.stop();
    await embedded?.close();
    if (backend === "pglite") {
      delete process.env.PGLITE_DATA_DIR;
      process.env.DATABASE_URL = postgresUrl;
    }
  });

  // Any UPDATE, even of equal values, gives the row a new version.
  const rowVersion = async (txid: string) =>
    (
      await db.$queryRawUnsafe<{ xmin: string }[]>(`SELECT xmin::text AS xmin FROM "PixCharge" WHERE txid = $1`, txid)
    )[0]?.xmin;

  // Notifications arrive in commit order: once a marker is in, nothing published before it can still come.
  async function awaitMarker(): Promise<{ id: string; index: number }> {
    const marker = { kind: "pix_charge" as const, id: `marker-${randomUUID()}` };
    await publishChange(marker);
    await vi.waitFor(() => expect(events).toContainEqual({ type: "change", change: marker }), {
      timeout: 5_000,
      interval: 20,
    });
    const index = events.findIndex((event) => event.type === "change" && event.change.id === marker.id);
    return { id: marker.id, index };
  }

  // A mark after every notification already published (an earlier write's may still be on its way).
  const settledMark = async () => (await awaitMarker()).index + 1;

  async function changesSince(mark: number): Promise<TChangeEvent[]> {
    const marker = await awaitMarker();
    return events.slice(mark, marker.index);
  }

  async function paidCharge(): Promise<string> {
    const user = await db.user.create({
      data: { email: `staff-${randomUUID()}@example.com`, name: "Staff", passwordHash: "x" },
    });
    const input = ZCreatePixChargeInput.parse({
      idempotencyKey: randomUUID(),
      amountCents: 2_000,
      expirationSeconds: 600,
    });
    const { txid } = await createPixCharge(input, { actor: { id: user.id, email: user.email } });
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${txid}/pay`);
    return txid;
  }

  it("writes nothing when upstream has not changed, and writes a change at once", async () => {
    const txid = await paidCharge();
    expect(await getPixChargeView(txid, { refresh: true })).toMatchObject({ status: "PAID" });
    const stored = await db.pixCharge.findUniqueOrThrow({ where: { txid } });
    const version = await rowVersion(txid);
    const mark = await settledMark();

    const first = await getPixChargeView(txid, { refresh: true });
    const second = await getPixChargeView(txid, { refresh: true });

    expect(await rowVersion(txid)).toBe(version);
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toEqual(stored);
    expect(await changesSince(mark)).toEqual([]);
    // The answer says when upstream last confirmed it; everything else is the mirror's.
    const { syncedAt: _first, ...firstView } = first!;
    const { syncedAt: secondSyncedAt, ...secondView } = second!;
    expect(secondView).toEqual(firstView);
    expect(Date.parse(secondSyncedAt)).toBeGreaterThan(stored.syncedAt.getTime());

    // The same check sees a real change: a refund upstream is written and announced.
    await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid, amount: 5 });
    const changedMark = await settledMark();
    expect(await getPixChargeView(txid, { refresh: true })).toMatchObject({ refundedCents: 500 });
    expect(await rowVersion(txid)).not.toBe(version);
    expect(await changesSince(changedMark)).toContainEqual({
      type: "change",
      change: { kind: "pix_charge", id: txid },
    });
  });

  it("reads the mirrored charge in one statement as Prisma reads it, refunds included", async () => {
    const txid = await paidCharge();
    await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid, amount: 3 });
    await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid, amount: 2 });
    await getPixChargeView(txid, { refresh: true });
    const viaPrisma = await db.pixCharge.findUnique({
      where: { txid },
      include: { refunds: { orderBy: [{ creationDate: "asc" }, { pixRefundId: "asc" }] } },
    });
    expect(viaPrisma?.refunds).toHaveLength(2);
    expect(await findMirroredPixCharge(txid)).toEqual(viaPrisma);
    expect(await findMirroredPixCharge("NoSuchTxid0000000000000000000000")).toBeNull();
  });
});
