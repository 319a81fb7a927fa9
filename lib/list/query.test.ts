import { describe, expect, it } from "vitest";

import { findListPage, orderByThen } from "./query";

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
    expect(page).toEqual({ rows: ["row"], total: 41, page: 3, pageSize: 20, pageCount: 3 });
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

  it("breaks ties with a unique column in the same order", () => {
    expect(orderByThen("amountCents", "txid", "asc")).toEqual([{ amountCents: "asc" }, { txid: "asc" }]);
  });
});
