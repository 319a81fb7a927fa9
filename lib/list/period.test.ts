import { describe, expect, it } from "vitest";
import { defaultPeriod, periodBounds, toSaoPauloDay, toUpstreamPeriod } from "./period";

describe("list periods in São Paulo days", () => {
  it("defaults to today and the six days before, by the São Paulo calendar", () => {
    // 01:30 UTC on the 21st is still the 20th in São Paulo (UTC-3).
    expect(defaultPeriod(new Date("2026-11-21T01:30:00Z"))).toEqual({ from: "2026-11-14", to: "2026-11-20" });
    expect(toSaoPauloDay(new Date("2026-11-21T03:00:00Z"))).toBe("2026-11-21");
  });

  it("bounds the mirror's queries with the whole last day included", () => {
    expect(periodBounds({ from: "2026-11-01", to: "2026-11-21" })).toEqual({
      gte: new Date("2026-11-01T03:00:00Z"),
      lt: new Date("2026-11-22T03:00:00Z"),
    });
    expect(periodBounds({ to: "2026-12-31" })).toEqual({ gte: undefined, lt: new Date("2027-01-01T03:00:00Z") });
  });

  it("asks upstream in zone-less Brasília time, both ends inclusive", () => {
    expect(toUpstreamPeriod({ from: "2026-11-01", to: "2026-11-21" })).toEqual({
      initialDate: "2026-11-01T00:00:00",
      endDate: "2026-11-21T23:59:59.999",
    });
  });
});
