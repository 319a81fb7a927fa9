import { describe, expect, it } from "vitest";

import { decodeCursor, encodeCursor, keysetWhere, reverseOrder } from "./cursor";

describe("list cursors", () => {
  it("round-trips a row's sort value (date, number or text) and tie-breaker", () => {
    const at = new Date("2026-03-01T12:00:00.123Z");
    for (const value of [at, 1500, "PAID"]) {
      const text = encodeCursor({ direction: "after", sort: "creationDate", order: "desc", value, id: "tx1" });
      expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(text, "creationDate", "desc")).toEqual({
        direction: "after",
        sort: "creationDate",
        order: "desc",
        value,
        id: "tx1",
      });
    }
    const before = encodeCursor({ direction: "before", sort: "amount", order: "asc", value: 10, id: "tx2" });
    expect(decodeCursor(before, "amount", "asc")?.direction).toBe("before");
  });

  it("reads a cursor made for another sort or order, or a hand-edited one, as no cursor (the first page)", () => {
    const text = encodeCursor({ direction: "after", sort: "creationDate", order: "desc", value: 1, id: "tx1" });
    expect(decodeCursor(text, "amount", "desc")).toBeNull();
    expect(decodeCursor(text, "creationDate", "asc")).toBeNull();
    expect(decodeCursor(undefined, "creationDate", "desc")).toBeNull();
    expect(decodeCursor("not-a-cursor", "creationDate", "desc")).toBeNull();
    expect(decodeCursor(Buffer.from('["a","s","desc",{"d":"nope"},"x"]').toString("base64url"), "s", "desc")).toBe(
      null,
    );
    expect(decodeCursor(Buffer.from('["a","s","desc",1,""]').toString("base64url"), "s", "desc")).toBeNull();
    expect(decodeCursor("x".repeat(501), "creationDate", "desc")).toBeNull();
  });

  it("selects the rows past the cursor in the order read, bounded on the sort column for the index", () => {
    const cursor = { direction: "after" as const, sort: "amount", order: "desc" as const, value: 500, id: "tx5" };
    expect(keysetWhere("amountCents", "txid", "desc", cursor)).toEqual({
      AND: [{ amountCents: { lte: 500 } }, { OR: [{ amountCents: { lt: 500 } }, { txid: { lt: "tx5" } }] }],
    });
    expect(keysetWhere("amountCents", "txid", "asc", cursor)).toEqual({
      AND: [{ amountCents: { gte: 500 } }, { OR: [{ amountCents: { gt: 500 } }, { txid: { gt: "tx5" } }] }],
    });
    expect(reverseOrder("desc")).toBe("asc");
  });
});
