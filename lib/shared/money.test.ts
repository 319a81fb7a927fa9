import { describe, expect, it } from "vitest";
import { amountToCents, centsToAmount, centsToAmountString, isExactAmount } from "./money";

describe("amountToCents", () => {
  it.each([
    [12.3, 1230],
    [0.01, 1],
    [0.29, 29],
    [100.5, 10050],
    ["12.30", 1230],
    ["7", 700],
    [0, 0],
  ])("%s → %i cents", (amount, cents) => {
    expect(amountToCents(amount)).toBe(cents);
  });

  it("rejects more than two decimals, exponents and text", () => {
    for (const bad of [0.1 + 0.2, 1.001, "1.234", 1e21, "abc", "", Number.NaN]) {
      expect(() => amountToCents(bad)).toThrow(RangeError);
      expect(isExactAmount(bad)).toBe(false);
    }
  });
});

describe("centsToAmount", () => {
  it("formats and converts back exactly", () => {
    expect(centsToAmountString(1230)).toBe("12.30");
    expect(centsToAmountString(5)).toBe("0.05");
    expect(centsToAmountString(-105)).toBe("-1.05");
    expect(centsToAmount(1230)).toBe(12.3);
    for (let cents = 0; cents < 2000; cents += 7) expect(amountToCents(centsToAmount(cents))).toBe(cents);
  });
});
