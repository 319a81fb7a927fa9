import { describe, expect, it } from "vitest";

import { formatAmount, formatBRL, parseBRLToCents } from "./money";

// Intl separates the symbol with a no-break space; compare with plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("formatBRL", () => {
  it("formats cents as reais in pt-BR", () => {
    expect(plain(formatBRL(123456, "pt-BR"))).toBe("R$ 1.234,56");
    expect(plain(formatBRL(5, "pt-BR"))).toBe("R$ 0,05");
    expect(plain(formatBRL(0, "pt-BR"))).toBe("R$ 0,00");
    expect(plain(formatBRL(100000000, "pt-BR"))).toBe("R$ 1.000.000,00");
  });

  it("keeps reais but uses English separators in en", () => {
    expect(plain(formatBRL(123456, "en"))).toBe("R$1,234.56");
  });

  it("defaults to pt-BR", () => {
    expect(formatBRL(123456)).toMatch(/^R\$\s1\.234,56$/);
  });

  it("formats negative amounts", () => {
    expect(plain(formatBRL(-1050, "pt-BR"))).toBe("-R$ 10,50");
  });

  it("is exact for amounts a float division would round wrongly", () => {
    expect(plain(formatBRL(Number.MAX_SAFE_INTEGER, "en"))).toBe("R$90,071,992,547,409.91");
    expect(plain(formatBRL(1005, "pt-BR"))).toBe("R$ 10,05");
  });

  it("refuses a fractional number of cents", () => {
    expect(() => formatBRL(10.5)).toThrow(RangeError);
  });
});

describe("formatAmount", () => {
  it("formats without the currency symbol", () => {
    expect(formatAmount(123456, "pt-BR")).toBe("1.234,56");
    expect(formatAmount(123456, "en")).toBe("1,234.56");
  });
});

describe("parseBRLToCents", () => {
  it.each([
    ["1.234,56", 123456],
    ["1234,56", 123456],
    ["R$ 1.234,56", 123456],
    ["R$\u00a01.234,56", 123456],
    ["0,05", 5],
    ["10", 1000],
    ["10,5", 1050],
    [",5", 50],
    ["1.234", 123400],
    ["1.000.000", 100000000],
    ["1234.56", 123456],
    ["12.5", 1250],
    [" 7 ", 700],
  ])("reads %j in pt-BR as %i cents", (input, cents) => {
    expect(parseBRLToCents(input, "pt-BR")).toBe(cents);
  });

  it.each([
    ["1234.56", 123456],
    ["1,234.56", 123456],
    ["R$1,234.56", 123456],
    ["1,234", 123400],
    ["12,5", 1250],
    ["0.99", 99],
  ])("reads %j in en as %i cents", (input, cents) => {
    expect(parseBRLToCents(input, "en")).toBe(cents);
  });

  it.each(["", "   ", "abc", "-5", "1,2,3", "1.2.3", "12.34.5", "1,234,56", "0,001", "1e3", ",", "R$"])(
    "rejects %j",
    (input) => {
      expect(parseBRLToCents(input, "pt-BR")).toBeNull();
    },
  );

  it("has no float error", () => {
    expect(parseBRLToCents("0,29")).toBe(29);
    expect(parseBRLToCents("1.005,10")).toBe(100510);
  });

  it("rejects amounts beyond safe integers", () => {
    expect(parseBRLToCents("999999999999999999")).toBeNull();
  });
});
