import { describe, expect, it } from "vitest";

import { ZCustomerDocument, ZCustomerFilters } from "./schemas";

describe("ZCustomerFilters", () => {
  it("defaults to the largest total first, page 1", () => {
    expect(ZCustomerFilters.parse({})).toEqual({ q: undefined, sort: "total", order: "desc", page: 1 });
  });

  it("drops what a hand-edited URL gets wrong instead of failing", () => {
    expect(ZCustomerFilters.parse({ q: "  ", sort: "name", order: "up", page: "-3" })).toEqual({
      q: undefined,
      sort: "total",
      order: "desc",
      page: 1,
    });
    expect(ZCustomerFilters.parse({ q: " 529.982 ", sort: "lastPaid", order: "asc", page: "2" })).toMatchObject({
      q: "529.982",
      sort: "lastPaid",
      order: "asc",
      page: 2,
    });
  });
});

describe("ZCustomerDocument", () => {
  it("takes CPF or CNPJ digits only", () => {
    expect(ZCustomerDocument.safeParse("52998224725").success).toBe(true);
    expect(ZCustomerDocument.safeParse("11222333000181").success).toBe(true);
    expect(ZCustomerDocument.safeParse("529.982.247-25").success).toBe(false);
    expect(ZCustomerDocument.safeParse("1234").success).toBe(false);
  });
});
