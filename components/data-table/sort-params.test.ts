import { describe, expect, it } from "vitest";

import { buildSortHref, readSort } from "./sort-params";

describe("readSort", () => {
  it("reads the column and order", () => {
    expect(readSort(new URLSearchParams("sort=createdAt&order=asc"))).toEqual({ column: "createdAt", order: "asc" });
  });

  it("defaults to descending and to no sort", () => {
    expect(readSort(new URLSearchParams("sort=amount&order=sideways"))).toEqual({ column: "amount", order: "desc" });
    expect(readSort(new URLSearchParams("status=paid"))).toBeNull();
  });
});

describe("buildSortHref", () => {
  it("sorts a new column in the first order and keeps filters", () => {
    expect(buildSortHref("/pix", new URLSearchParams("status=paid"), "amount")).toBe(
      "/pix?status=paid&sort=amount&order=desc",
    );
    expect(buildSortHref("/pix", new URLSearchParams(), "name", "asc")).toBe("/pix?sort=name&order=asc");
  });

  it("flips the order of the sorted column", () => {
    expect(buildSortHref("/pix", new URLSearchParams("sort=amount&order=desc"), "amount")).toBe(
      "/pix?sort=amount&order=asc",
    );
    expect(buildSortHref("/pix", new URLSearchParams("sort=amount&order=asc"), "amount")).toBe(
      "/pix?sort=amount&order=desc",
    );
  });

  it("goes back to the first page", () => {
    expect(buildSortHref("/audit", new URLSearchParams("page=5&actor=x"), "occurredAt")).toBe(
      "/audit?actor=x&sort=occurredAt&order=desc",
    );
  });

  it("honours renamed parameters", () => {
    const names = { sort: "dsort", order: "dorder", page: "dpage" };
    expect(buildSortHref("/webhooks", new URLSearchParams("dpage=2&page=3"), "at", "desc", names)).toBe(
      "/webhooks?page=3&dsort=at&dorder=desc",
    );
  });
});
