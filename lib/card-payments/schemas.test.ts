import { describe, expect, it } from "vitest";
import en from "@/lib/i18n/messages/en.json";
import ptBR from "@/lib/i18n/messages/pt-BR.json";
import { ZCardLastFour, ZCardPaymentFilters } from "./schemas";

describe("card payment list filters", () => {
  it("reads amounts typed in reais as cents, odd cents included, either locale's way", () => {
    const filters = ZCardPaymentFilters.parse({ minAmount: "123.45", maxAmount: "1.234,56" });
    expect(filters).toMatchObject({ minAmount: 12345, maxAmount: 123456 });
    expect(ZCardPaymentFilters.parse({ minAmount: "10,01" }).minAmount).toBe(1001);
    expect(ZCardPaymentFilters.parse({ minAmount: "0.29" }).minAmount).toBe(29);
    expect(ZCardPaymentFilters.parse({ minAmount: "1,234.50" }).minAmount).toBe(123450);
    expect(ZCardPaymentFilters.parse({ minAmount: "R$ 7" }).minAmount).toBe(700);
  });

  it("drops a bad amount or last four from a hand-edited URL instead of failing", () => {
    const filters = ZCardPaymentFilters.parse({ minAmount: "12.345.6", maxAmount: "abc", lastFour: "12a4" });
    expect(filters).toMatchObject({ minAmount: undefined, maxAmount: undefined, lastFour: undefined });
    expect(ZCardPaymentFilters.parse({ lastFour: " 4242 " }).lastFour).toBe("4242");
  });

  it("wants exactly four digits for the last four, with a message in both languages", () => {
    for (const value of ["123", "12345", "12a4", ""]) {
      const result = ZCardLastFour.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("lastFourInvalid");
    }
    expect(en.cardPayments.errors.lastFourInvalid).toMatch(/4 digits/);
    expect(ptBR.cardPayments.errors.lastFourInvalid).toMatch(/4 últimos dígitos/);
  });

  it("keeps only known statuses, brands and types, and sorts by date newest first by default", () => {
    expect(ZCardPaymentFilters.parse({ status: "refused", brand: "2", type: "D" })).toMatchObject({
      status: "refused",
      brand: "2",
      type: "D",
      sort: "date",
      order: "desc",
      page: 1,
    });
    expect(ZCardPaymentFilters.parse({ status: "NEG", brand: "99", type: "B", sort: "status" })).toMatchObject({
      status: undefined,
      brand: undefined,
      type: undefined,
      sort: "date",
    });
  });
});
