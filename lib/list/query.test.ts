import { describe, expect, it } from "vitest";

import { decodeCursor, encodeCursor } from "./cursor";
import { findListPage, listCountCap, listNumberedRows, orderByThen, type TListKeyset } from "./query";

const rowsKeyset = {
  sort: "at",
  order: "desc" as const,
  field: "at",
  tieBreaker: "id",
  cursorOf: () => [1, "a"] as [number, string],
};

describe("list queries", () => {
  it("reads the page's window and counts the pages", async () => {
    const windows: unknown[] = [];
    const page = await findListPage(
      { page: 3, pageSize: 20 },
      {
        count: async () => 41,
        findMany: async (window) => {
          windows.push(window);
          return ["row"];
        },
      },
    );
    expect(windows).toEqual([{ skip: 40, take: 20 }]);
    expect(page).toEqual({ rows: ["row"], total: 41, isTotalCapped: false, page: 3, pageSize: 20, pageCount: 3 });
  });

  it("shows one empty page when nothing matches", async () => {
    const page = await findListPage({ page: 1, pageSize: 20 }, { count: async () => 0, findMany: async () => [] });
    expect(page.pageCount).toBe(1);
  });

  it("takes the count and the amount total from one aggregate when the list has an amount", async () => {
    const page = await findListPage(
      { page: 1, pageSize: 20 },
      {
        sumField: "amountCents",
        aggregate: async () => ({ _count: { _all: 2 }, _sum: { amountCents: 1500 } }),
        findMany: async () => ["a", "b"],
      },
    );
    expect(page).toMatchObject({ total: 2, totalCents: 1500, pageCount: 1 });
    const empty = await findListPage(
      { page: 1, pageSize: 20 },
      {
        sumField: "amountCents",
        aggregate: async () => ({ _count: { _all: 0 }, _sum: { amountCents: null } }),
        findMany: async () => [],
      },
    );
    expect(empty.totalCents).toBe(0);
  });

  it("asks for a count bounded by the cap; above it the total is capped and the amount total left out", async () => {
    const takes: number[] = [];
    const page = await findListPage(
      { page: 1, pageSize: 20 },
      {
        sumField: "amountCents",
        aggregate: async (take) => {
          takes.push(take);
          return { _count: { _all: take }, _sum: { amountCents: 123 } };
        },
        findMany: async () => ["a"],
        keyset: rowsKeyset,
      },
    );
    expect(takes).toEqual([listCountCap + 1]);
    expect(page).toMatchObject({
      total: listCountCap + 1,
      isTotalCapped: true,
      pageCount: listNumberedRows / 20,
      hasMorePages: true,
    });
    expect(page.totalCents).toBeUndefined();
    // A list without cursors counts every row, as before.
    const plain = await findListPage(
      { page: 1, pageSize: 20 },
      { count: async () => 50_000, findMany: async () => ["a"] },
    );
    expect(plain).toMatchObject({ total: 50_000, isTotalCapped: false, pageCount: 2_500 });
    expect(plain.hasMorePages).toBeUndefined();
  });

  describe("paging by cursor", () => {
    // Rows 1…95, newest (highest) first: a stand-in for a table read through `where` + `order`.
    const all = Array.from({ length: 95 }, (_, index) => ({ at: 95 - index, id: `r${95 - index}` }));
    type TRow = (typeof all)[number];
    const read = (window: { skip: number; take: number }, keyset: TListKeyset | null) => {
      if (!keyset) return all.slice(window.skip, window.skip + window.take);
      const [bound] = (keyset.where as { AND: [Record<string, Record<string, number>>, unknown] }).AND;
      const [op, value] = Object.entries(bound.at!)[0]!;
      const rows = all.filter((row) => (op === "lte" ? row.at < value : row.at > value));
      return (keyset.order === "desc" ? rows : [...rows].reverse()).slice(0, window.take);
    };
    const rowsKeysetOf = { sort: "at", order: "desc" as const, field: "at", tieBreaker: "id" };
    const query = {
      count: async () => all.length,
      findMany: async (window: { skip: number; take: number }, keyset: TListKeyset | null) => read(window, keyset),
      keyset: { ...rowsKeysetOf, cursorOf: (row: TRow): [number, string] => [row.at, row.id] },
    };
    const ats = (rows: TRow[]) => rows.map((row) => row.at);

    it("numbers the first pages and gives the next page's cursor after the last row", async () => {
      const first = await findListPage({ page: 1, pageSize: 20 }, query);
      expect(ats(first.rows)).toEqual(all.slice(0, 20).map((row) => row.at));
      expect(first.cursors?.previous).toBeNull();
      expect(decodeCursor(first.cursors!.next!, "at", "desc")).toMatchObject({ direction: "after", value: 76 });
      const last = await findListPage({ page: 5, pageSize: 20 }, query);
      expect(last.rows).toHaveLength(15);
      expect(last.cursors?.next).toBeNull();
    });

    it("reads the page after a cursor, and back before it, as page 0", async () => {
      const after = encodeCursor({ direction: "after", sort: "at", order: "desc", value: 76, id: "r76" });
      const second = await findListPage({ page: 1, pageSize: 20, cursor: after }, query);
      expect(second.page).toBe(0);
      expect(ats(second.rows)).toEqual(all.slice(20, 40).map((row) => row.at));
      const back = await findListPage({ page: 1, pageSize: 20, cursor: second.cursors!.previous! }, query);
      // Fewer than a page before it: the first numbered page.
      expect(back.page).toBe(1);
      expect(ats(back.rows)).toEqual(all.slice(0, 20).map((row) => row.at));
      const third = await findListPage({ page: 1, pageSize: 20, cursor: second.cursors!.next! }, query);
      const previous = await findListPage({ page: 1, pageSize: 20, cursor: third.cursors!.previous! }, query);
      expect(previous.page).toBe(0);
      expect(ats(previous.rows)).toEqual(ats(second.rows));
      const end = await findListPage(
        {
          page: 1,
          pageSize: 20,
          cursor: encodeCursor({ direction: "after", sort: "at", order: "desc", value: 16, id: "r16" }),
        },
        query,
      );
      expect(ats(end.rows)).toEqual([15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
      expect(end.cursors?.next).toBeNull();
    });

    it("ignores a cursor made for another sort", async () => {
      const other = encodeCursor({ direction: "after", sort: "amount", order: "desc", value: 76, id: "r76" });
      const page = await findListPage({ page: 1, pageSize: 20, cursor: other }, query);
      expect(page.page).toBe(1);
    });
  });

  it("breaks ties with a unique column in the same order", () => {
    expect(orderByThen("amountCents", "txid", "asc")).toEqual([{ amountCents: "asc" }, { txid: "asc" }]);
  });
});
