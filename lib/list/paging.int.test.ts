import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAuditEntries } from "@/lib/audit/audit-log";
import { ZAuditFilters } from "@/lib/audit/schemas";
import { db } from "@/lib/db/client";
import { findPixCharges } from "@/lib/pix/charges";
import { ZPixChargeFilters } from "@/lib/pix/schemas";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { findWebhookDeliveries } from "@/lib/webhooks/history";
import { ZDeliveryFilters } from "@/lib/webhooks/schemas";
import { encodeCursor } from "./cursor";
import { defaultPeriod } from "./period";
import { listCountCap, listNumberedRows, type TListPage } from "./query";

// Keyset paging and capped counts through the lists' own queries, on PostgreSQL and on the embedded PGlite.

const day = defaultPeriod(new Date(), 2);
const base = Date.now() - 3600_000;
// 47 charges, amounts with many ties, creation dates with ties (every third shares the one before's instant).
const charges = Array.from({ length: 47 }, (_, index) => {
  const at = new Date(base + Math.floor(index / 3) * 1000);
  return {
    txid: `PAGING${String(index).padStart(20, "0")}`,
    amountCents: 100 * (1 + (index % 5)),
    status: index % 4 === 0 ? "ACTIVE" : "PAID",
    creationDate: at,
    expirationSeconds: 3600,
    expiresAt: new Date(at.getTime() + 3600_000),
    raw: {},
    syncedAt: new Date(),
  };
});

/** Every page from the first by "next", then back by "previous": the rows seen, in order, both ways. */
async function walk<TRow>(read: (cursor?: string) => Promise<TListPage<TRow>>, key: (row: TRow) => string) {
  const forward: string[] = [];
  const pages: TListPage<TRow>[] = [];
  let page = await read();
  for (;;) {
    pages.push(page);
    forward.push(...page.rows.map(key));
    if (!page.cursors?.next) break;
    page = await read(page.cursors.next);
  }
  const backward: string[] = [];
  for (;;) {
    backward.unshift(...page.rows.map(key));
    if (!page.cursors?.previous) break;
    page = await read(page.cursors.previous);
  }
  return { forward, backward, pages, first: page };
}

function pagingTests() {
  it("pages Pix charges by cursor under every sort, ties included, forward and back", async () => {
    await db.pixCharge.deleteMany();
    await db.pixCharge.createMany({ data: charges });
    for (const [sort, order] of [
      ["creationDate", "desc"],
      ["amount", "asc"],
      ["amount", "desc"],
      ["status", "asc"],
      ["txid", "desc"],
    ] as const) {
      const all = (await findPixCharges(ZPixChargeFilters.parse({ ...day, sort, order }), 100)).rows.map(
        (row) => row.txid,
      );
      expect(all).toHaveLength(47);
      const { forward, backward, pages, first } = await walk(
        (cursor) => findPixCharges(ZPixChargeFilters.parse({ ...day, sort, order, cursor }), 10),
        (row) => row.txid,
      );
      // Page 1 is numbered; the rest were reached by cursor.
      expect(pages.map((page) => page.page)).toEqual([1, 0, 0, 0, 0]);
      expect(forward).toEqual(all);
      expect(first.page).toBe(1);
      expect(backward.slice(-forward.length)).toEqual(all);
    }
    const filtered = await findPixCharges(ZPixChargeFilters.parse({ ...day, status: "ACTIVE" }), 5);
    expect(filtered).toMatchObject({ total: 12, isTotalCapped: false, pageCount: 3 });
    expect(filtered.totalCents).toBe(
      charges.filter((charge) => charge.status === "ACTIVE").reduce((sum, charge) => sum + charge.amountCents, 0),
    );
    // A cursor under another sort means the first page.
    const other = await findPixCharges(
      ZPixChargeFilters.parse({ ...day, sort: "amount", cursor: filtered.cursors!.next! }),
      5,
    );
    expect(other.page).toBe(1);
  });

  it("pages webhook deliveries by cursor, newest first", async () => {
    await db.webhookDelivery.deleteMany();
    await db.webhookDelivery.createMany({
      data: Array.from({ length: 23 }, (_, index) => ({
        pathId: "paging",
        receivedAt: new Date(base + Math.floor(index / 2) * 1000),
        headers: {},
        rawBody: Buffer.from("{}"),
        signatureValid: true,
        outcome: index % 3 === 0 ? ("FAILED" as const) : ("APPLIED" as const),
      })),
    });
    const all = (await findWebhookDeliveries(ZDeliveryFilters.parse({}), 100)).rows.map((row) => row.id);
    const { forward, backward } = await walk(
      (cursor) => findWebhookDeliveries(ZDeliveryFilters.parse({ cursor }), 5),
      (row) => row.id,
    );
    expect(forward).toEqual(all);
    expect(backward.slice(-all.length)).toEqual(all);
    expect((await findWebhookDeliveries(ZDeliveryFilters.parse({ outcome: "FAILED" }), 5)).total).toBe(8);
  });

  it("counts the audit log up to the cap, and pages past the numbered pages by cursor", async () => {
    await db.auditLog.deleteMany();
    const rows = listCountCap + 5;
    await db.auditLog.createMany({
      data: Array.from({ length: rows }, (_, index) => ({
        occurredAt: new Date(base + index),
        action: index < 7 ? "user.created" : "auth.sign_in",
        actorEmail: "ana@example.com",
      })),
    });
    const first = await findAuditEntries(ZAuditFilters.parse({}));
    const numbered = listNumberedRows / 50;
    expect(first).toMatchObject({
      total: listCountCap + 1,
      isTotalCapped: true,
      pageCount: numbered,
      hasMorePages: true,
    });
    expect((await findAuditEntries(ZAuditFilters.parse({ action: "user.created" }))).total).toBe(7);
    // The last numbered page, then "next" by cursor.
    const newest = rows - 1;
    const last = await findAuditEntries(ZAuditFilters.parse({ page: String(numbered) }));
    expect(last.rows.at(-1)!.occurredAt).toEqual(new Date(base + newest - listNumberedRows + 1));
    const beyond = await findAuditEntries(ZAuditFilters.parse({ cursor: last.cursors!.next! }));
    expect(beyond).toMatchObject({ page: 0, isTotalCapped: true, hasMorePages: true });
    expect(beyond.rows[0]!.occurredAt).toEqual(new Date(base + newest - listNumberedRows));
    // Past the count's cap, to the end.
    const sixth = await db.auditLog.findFirstOrThrow({ where: { occurredAt: new Date(base + 5) } });
    const cursor = encodeCursor({
      direction: "after",
      sort: "occurredAt",
      order: "desc",
      value: sixth.occurredAt,
      id: sixth.id,
    });
    const end = await findAuditEntries(ZAuditFilters.parse({ cursor }));
    expect(end.rows.map((row) => row.occurredAt.getTime() - base)).toEqual([4, 3, 2, 1, 0]);
    expect(end.cursors?.next).toBeNull();
  });
}

describe("list paging on PostgreSQL", () => {
  pagingTests();
});

describe("list paging on the embedded PGlite", () => {
  let embedded: { close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    embedded = await useEmbeddedDefaultDatabase();
  });
  afterAll(async () => {
    await embedded?.close();
  });
  pagingTests();
});
