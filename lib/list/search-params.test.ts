import { createLoader, createSerializer } from "nuqs/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { ZOptionalAmountReais, ZOptionalDay, ZOptionalFilterText, ZOrder, ZPage, ZSort } from "./schemas";
import {
  buildSortHref,
  countListFilters,
  createListParsers,
  hasListFilters,
  nextSortOrder,
  parseAsAmountCents,
  toListFilters,
} from "./search-params";

const ZFilters = z.object({
  from: ZOptionalDay,
  status: z.enum(["PAID", "PARTIALLY REFUNDED"]).optional().catch(undefined),
  txid: ZOptionalFilterText(5),
  statusCode: z.coerce.number().int().optional().catch(undefined),
  sort: ZSort(["creationDate", "amount"]),
  order: ZOrder,
  page: ZPage,
});
const parsers = createListParsers(ZFilters.shape);
const load = createLoader(parsers);
const serialize = createSerializer(parsers);

describe("list search params", () => {
  it("reads a shared link with the list's zod rules", () => {
    expect(load("?from=2026-11-01&status=PAID&txid=%20ab%20&statusCode=3&sort=amount&order=asc&page=2")).toEqual({
      from: "2026-11-01",
      status: "PAID",
      txid: "ab",
      statusCode: 3,
      sort: "amount",
      order: "asc",
      page: 2,
    });
  });

  it("drops each bad value on its own and falls back on the defaults", () => {
    expect(load("?from=yesterday&status=nope&txid=toolong&statusCode=x&sort=drop&order=up&page=-4")).toEqual({
      from: null,
      status: null,
      txid: null,
      statusCode: null,
      sort: "creationDate",
      order: "desc",
      page: 1,
    });
  });

  it("writes page links without defaults or empty filters", () => {
    const values = load("?status=PARTIALLY+REFUNDED&page=3");
    expect(serialize("/pix", { ...values, page: 1 })).toBe("/pix?status=PARTIALLY+REFUNDED");
    expect(serialize("/pix", { ...values, page: 4 })).toBe("/pix?status=PARTIALLY+REFUNDED&page=4");
  });

  it("hands the list query undefined for absent filters", () => {
    expect(toListFilters(load(""))).toEqual({
      from: undefined,
      status: undefined,
      txid: undefined,
      statusCode: undefined,
      sort: "creationDate",
      order: "desc",
      page: 1,
    });
  });

  it("tells filters from sorting and paging", () => {
    expect(hasListFilters(load("?sort=amount&order=asc&page=2"))).toBe(false);
    expect(hasListFilters({ sort: "amount", cursor: "WyJhIl0" })).toBe(false);
    expect(hasListFilters(load("?statusCode=0"))).toBe(true);
  });

  it("counts a period's two ends as one filter, and sorting or paging as none", () => {
    expect(countListFilters(load("?sort=amount&page=2"))).toBe(0);
    expect(countListFilters({ from: "2026-11-01", to: "2026-11-25", status: "PAID", sort: "amount" })).toBe(2);
    expect(countListFilters({ to: "2026-11-25" })).toBe(1);
    expect(countListFilters(load("?statusCode=0&txid=abc"))).toBe(2);
  });
});

describe("sort links", () => {
  it("sorts a new column in its first order and flips the sorted one", () => {
    expect(nextSortOrder(null, "amount", "desc")).toBe("desc");
    expect(nextSortOrder({ column: "txid", order: "asc" }, "amount", "asc")).toBe("asc");
    expect(nextSortOrder({ column: "amount", order: "desc" }, "amount", "desc")).toBe("asc");
    expect(nextSortOrder({ column: "amount", order: "asc" }, "amount", "desc")).toBe("desc");
  });

  it("keeps the filters and goes back to the first page", () => {
    expect(buildSortHref("/audit", new URLSearchParams("page=5&actor=x"), "occurredAt", "desc")).toBe(
      "/audit?actor=x&sort=occurredAt&order=desc",
    );
    expect(buildSortHref("/pix", new URLSearchParams(), "amount", "asc")).toBe("/pix?sort=amount&order=asc");
    // A cursor belongs to the order it was made in.
    expect(buildSortHref("/pix", new URLSearchParams("cursor=abc&status=PAID"), "amount", "asc")).toBe(
      "/pix?status=PAID&sort=amount&order=asc",
    );
  });
});

describe("amount filters", () => {
  const amountParsers = { minAmount: parseAsAmountCents(ZOptionalAmountReais) };
  it("keep reais in the URL and cents in the query", () => {
    expect(createLoader(amountParsers)("?minAmount=10.01")).toEqual({ minAmount: 1001 });
    expect(createLoader(amountParsers)("?minAmount=1.234%2C5")).toEqual({ minAmount: 123450 });
    expect(createLoader(amountParsers)("?minAmount=ten")).toEqual({ minAmount: null });
    expect(createSerializer(amountParsers)("/payments", { minAmount: 12345 })).toBe("/payments?minAmount=123.45");
  });
});
