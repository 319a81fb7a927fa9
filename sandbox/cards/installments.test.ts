import { describe, expect, it } from "vitest";
import { addMonthsDate, planInstallments, splitCents } from "./installments";

describe("splitCents", () => {
  it.each([
    [10_000, 3, [3334, 3333, 3333]],
    [10_000, 1, [10_000]],
    [1, 3, [1, 0, 0]],
    [999_999, 12, [83_336, ...Array<number>(11).fill(83_333)]],
  ])("splits %i cents in %i installments", (total, count, expected) => {
    expect(splitCents(total, count)).toEqual(expected);
  });

  it("always adds up to the total", () => {
    for (let total = 0; total < 2000; total += 7) {
      for (let count = 1; count <= 12; count++) {
        expect(splitCents(total, count).reduce((sum, cents) => sum + cents, 0)).toBe(total);
      }
    }
  });

  it("rejects fractional cents and zero installments", () => {
    expect(() => splitCents(10.5, 2)).toThrow(RangeError);
    expect(() => splitCents(100, 0)).toThrow(RangeError);
  });
});

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
