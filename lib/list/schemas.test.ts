import { describe, expect, it } from "vitest";

import { ZOptionalFilterText, ZOrder, ZPage, ZSort } from "./schemas";

describe("list schemas", () => {
  it("fall back instead of failing on a hand-edited URL", () => {
    expect(ZPage.parse("0")).toBe(1);
    expect(ZPage.parse(undefined)).toBe(1);
    expect(ZPage.parse("7")).toBe(7);
    expect(ZOrder.parse("sideways")).toBe("desc");
    expect(ZSort(["creationDate", "amount"]).parse("DROP TABLE")).toBe("creationDate");
    expect(ZOptionalFilterText(3).parse(["a", "b"])).toBeUndefined();
    expect(ZOptionalFilterText(3).parse("  ")).toBeUndefined();
    expect(ZOptionalFilterText(3).parse(" ab ")).toBe("ab");
  });
});
