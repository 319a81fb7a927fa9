import { describe, expect, it } from "vitest";

import { buildListHref } from "./list-href";

describe("buildListHref", () => {
  it("keeps set params and drops empty ones", () => {
    expect(buildListHref("/pix", { status: "PAID", txid: "", document: undefined, reference: null })).toBe(
      "/pix?status=PAID",
    );
  });

  it("leaves the first page out", () => {
    expect(buildListHref("/pix", { page: 1 })).toBe("/pix");
    expect(buildListHref("/pix", { from: "2026-01-01", page: 3 })).toBe("/pix?from=2026-01-01&page=3");
  });

  it("encodes values", () => {
    expect(buildListHref("/pix", { status: "PARTIALLY REFUNDED" })).toBe("/pix?status=PARTIALLY+REFUNDED");
  });
});
