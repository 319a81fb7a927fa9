import { describe, expect, it } from "vitest";

import { getPageItems } from "./page-items";

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
