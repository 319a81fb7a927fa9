import { describe, expect, it } from "vitest";
import { installmentCountFor, previewInstallments, takesInstallmentCount } from "./terminal-plan";

describe("the terminal's installment preview", () => {
  it("puts the odd cents on the first installment and adds up to the amount", () => {
    expect(previewInstallments(10_000, "4", 3)).toEqual({
      count: 3,
      amountsCents: [3334, 3333, 3333],
      firstCents: 3334,
      otherCents: 3333,
    });
    expect(previewInstallments(100_001, "6", 12)?.amountsCents).toEqual([8338, ...Array<number>(11).fill(8333)]);
    for (let cents = 1; cents < 3000; cents += 17)
      for (let count = 1; count <= 12; count++) {
        const preview = previewInstallments(cents, "4", count);
        expect(preview?.amountsCents.reduce((sum, part) => sum + part, 0)).toBe(cents);
      }
  });

  it("charges a one-payment credit and a debit in one installment, whatever count was left chosen", () => {
    expect(previewInstallments(999, "3", 5)).toEqual({ count: 1, amountsCents: [999], firstCents: 999, otherCents: 0 });
    expect(previewInstallments(999, "7", 12)?.count).toBe(1);
    expect(installmentCountFor("3", 4)).toBe(1);
    expect(installmentCountFor("6", 4)).toBe(4);
    expect(takesInstallmentCount("4")).toBe(true);
    expect(takesInstallmentCount("7")).toBe(false);
  });

  it("shows nothing until there is an amount and a count the gateway takes", () => {
    expect(previewInstallments(null, "4", 2)).toBeNull();
    expect(previewInstallments(0, "4", 2)).toBeNull();
    expect(previewInstallments(1.5, "4", 2)).toBeNull();
    expect(previewInstallments(1000, "4", 13)).toBeNull();
    expect(previewInstallments(1000, "4", 0)).toBeNull();
  });

  it("gives installments of 0 cents when the amount is smaller than the count", () => {
    expect(previewInstallments(2, "4", 3)?.amountsCents).toEqual([2, 0, 0]);
  });
});
