import { describe, expect, it } from "vitest";
import { splitCents } from "./installments";

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
