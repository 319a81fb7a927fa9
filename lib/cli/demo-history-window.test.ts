import { describe, expect, it } from "vitest";
import { isReportableByPos } from "./demo-history-window";

const dayMs = 24 * 60 * 60_000;

describe("the demo history's POS sales", () => {
  it("stay inside the window the POS backend accepts, with room for the seed's run", () => {
    const now = new Date("2026-11-27T23:30:00Z");
    expect(isReportableByPos(now.getTime() - 29 * dayMs, now)).toBe(true);
    // The first day of a 30-day history, earlier in the day than now: the backend would refuse it.
    expect(isReportableByPos(now.getTime() - 30 * dayMs - 6 * 60 * 60_000, now)).toBe(false);
    expect(isReportableByPos(now.getTime() - 30 * dayMs + 30 * 60_000, now)).toBe(false);
  });
});
