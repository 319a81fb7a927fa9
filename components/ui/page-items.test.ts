import { describe, expect, it } from "vitest";

import { getPageItems, getPageNavigation, type TPageItem } from "./page-items";

const render = (page: number, count: number) =>
  getPageItems(page, count)
    .map((item) => (item.kind === "page" ? String(item.page) : "…"))
    .join(" ");

describe("getPageItems", () => {
  it("lists every page when they fit", () => {
    expect(render(1, 1)).toBe("1");
    expect(render(3, 7)).toBe("1 2 3 4 5 6 7");
  });

  it("returns nothing for an empty list", () => {
    expect(getPageItems(1, 0)).toEqual([]);
  });

  it("collapses the far end near the start", () => {
    expect(render(1, 20)).toBe("1 2 3 4 5 … 20");
    expect(render(4, 20)).toBe("1 2 3 4 5 … 20");
  });

  it("collapses both sides in the middle", () => {
    expect(render(10, 20)).toBe("1 … 9 10 11 … 20");
  });

  it("collapses the near end near the last page", () => {
    expect(render(20, 20)).toBe("1 … 16 17 18 19 20");
    expect(render(17, 20)).toBe("1 … 16 17 18 19 20");
  });

  it("keeps the same number of items while paging", () => {
    const lengths = new Set(Array.from({ length: 20 }, (_, i) => getPageItems(i + 1, 20).length));
    expect(lengths).toEqual(new Set([7]));
  });

  it("clamps a page out of range", () => {
    expect(render(99, 20)).toBe(render(20, 20));
    expect(render(-1, 20)).toBe(render(1, 20));
  });
});

describe("getPageNavigation", () => {
  const byPage = (page: number) => `?page=${page}`;
  const byCursor = (cursor: string) => `?cursor=${cursor}`;
  const items = (list: TPageItem[]) => list.map((item) => (item.kind === "page" ? String(item.page) : "…")).join(" ");

  it("links numbered pages by number, as before, when the list has no cursors", () => {
    expect(getPageNavigation({ page: 2, pageCount: 3 }, byPage)).toEqual({
      previous: "?page=1",
      next: "?page=3",
      items: getPageItems(2, 3),
    });
    expect(getPageNavigation({ page: 3, pageCount: 3 }, byPage).next).toBeNull();
  });

  it("goes on by cursor past the last numbered page of a capped count, with a trailing gap", () => {
    const navigation = getPageNavigation(
      { page: 500, pageCount: 500, cursors: { previous: null, next: "c1" }, hasMorePages: true },
      byPage,
      byCursor,
    );
    expect(navigation.previous).toBe("?page=499");
    expect(navigation.next).toBe("?cursor=c1");
    expect(items(navigation.items)).toBe("1 … 496 497 498 499 500 …");
    const early = getPageNavigation(
      { page: 2, pageCount: 500, cursors: { previous: null, next: "c2" }, hasMorePages: true },
      byPage,
      byCursor,
    );
    expect(early.next).toBe("?page=3");
  });

  it("on a page reached by cursor, offers the first page and the neighbours' cursors", () => {
    const navigation = getPageNavigation(
      { page: 0, pageCount: 500, cursors: { previous: "p", next: null }, hasMorePages: true },
      byPage,
      byCursor,
    );
    expect(navigation).toMatchObject({ previous: "?cursor=p", next: null });
    expect(items(navigation.items)).toBe("1 …");
  });
});
