import { describe, expect, it } from "vitest";
import { formatBucketLabel } from "./format";
import { resolveOverviewPeriod, ZOverviewSearchParams } from "./schemas";

// 2026-11-21 01:00 UTC is still 2026-11-20 (22:00) in São Paulo.
const now = new Date("2026-11-21T01:00:00Z");
const resolve = (params: Record<string, string>) => resolveOverviewPeriod(ZOverviewSearchParams.parse(params), now);

describe("ZOverviewSearchParams", () => {
  it("defaults to today and drops what it cannot read", () => {
    expect(ZOverviewSearchParams.parse({})).toEqual({ period: "today" });
    expect(ZOverviewSearchParams.parse({ period: "year", from: "2026-13-40", to: "x" })).toEqual({ period: "today" });
  });
});

describe("resolveOverviewPeriod", () => {
  it("takes today, 7 and 30 days in São Paulo days", () => {
    expect(resolve({})).toEqual({ preset: "today", from: "2026-11-20", to: "2026-11-20", days: 1, bucket: "hour" });
    expect(resolve({ period: "7d" })).toMatchObject({ from: "2026-11-14", to: "2026-11-20", days: 7, bucket: "day" });
    expect(resolve({ period: "30d" })).toMatchObject({ from: "2026-10-22", to: "2026-11-20", days: 30 });
  });

  it("reads a custom period in either order, one day alone, or none as today", () => {
    expect(resolve({ period: "custom", from: "2026-11-10", to: "2026-11-01" })).toMatchObject({
      from: "2026-11-01",
      to: "2026-11-10",
      days: 10,
    });
    expect(resolve({ period: "custom", to: "2026-11-03" })).toMatchObject({ from: "2026-11-03", to: "2026-11-03" });
    expect(resolve({ period: "custom" })).toMatchObject({ preset: "today", from: "2026-11-20" });
  });

  it("keeps the latest 366 days of a longer custom period", () => {
    expect(resolve({ period: "custom", from: "2020-01-01", to: "2026-11-20" })).toMatchObject({
      from: "2025-11-20",
      days: 366,
    });
  });
});

describe("formatBucketLabel", () => {
  it("formats days and hours in each locale without moving them", () => {
    expect(formatBucketLabel("2026-11-20", "pt-BR")).toBe("20/11");
    expect(formatBucketLabel("2026-11-20", "en")).toBe("11/20");
    expect(formatBucketLabel("2026-11-20T00", "pt-BR")).toBe("00:00");
  });
});
