import { describe, expect, it } from "vitest";
import { addMonthsDate, planInstallments } from "./installments";

describe("addMonthsDate", () => {
  it("adds calendar months in Brasília time", () => {
    expect(addMonthsDate(Date.parse("2026-05-15T12:00:00Z"), 1)).toBe("2026-06-15");
    expect(addMonthsDate(Date.parse("2026-11-10T12:00:00Z"), 2)).toBe("2027-01-10");
    // 01:00 UTC on the 1st is still the last day of the previous month in Brasília.
    expect(addMonthsDate(Date.parse("2026-06-01T01:00:00Z"), 1)).toBe("2026-06-30");
  });

  it("clamps to the last day of shorter months", () => {
    expect(addMonthsDate(Date.parse("2027-01-31T15:00:00Z"), 1)).toBe("2027-02-28");
    expect(addMonthsDate(Date.parse("2028-01-31T15:00:00Z"), 1)).toBe("2028-02-29");
  });
});

describe("planInstallments", () => {
  it("numbers installments from 1, one month apart", () => {
    expect(planInstallments(10_000, 3, Date.parse("2026-05-15T12:00:00Z"))).toEqual([
      { numeroParcela: 1, valorParcelaCents: 3334, dataVencimento: "2026-06-15" },
      { numeroParcela: 2, valorParcelaCents: 3333, dataVencimento: "2026-07-15" },
      { numeroParcela: 3, valorParcelaCents: 3333, dataVencimento: "2026-08-15" },
    ]);
  });
});
