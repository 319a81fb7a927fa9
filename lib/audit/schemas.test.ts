import { describe, expect, it } from "vitest";
import { ZAuditFilters } from "./schemas";

describe("ZAuditFilters", () => {
  it("drops malformed filters from the URL instead of failing", () => {
    expect(
      ZAuditFilters.parse({ action: "drop.table", from: "yesterday", page: "-4", actor: ["a", "b"], resourceId: "  " }),
    ).toEqual({
      action: undefined,
      actor: undefined,
      resourceType: undefined,
      resourceId: undefined,
      from: undefined,
      to: undefined,
      page: 1,
    });
  });
});
