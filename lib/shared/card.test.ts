import { describe, expect, it } from "vitest";
import {
  BANDEIRA_CARTAO_BY_BRAND,
  brandFromBandeiraCartao,
  cardBin,
  detectCardBrand,
  isCardExpiryFormat,
  isCardExpiryValid,
  maskCardNumber,
  passesLuhn,
} from "./card";

describe("passesLuhn", () => {
  it.each([
    "4111111111111111",
    "5555555555554444",
    "4000000000000002",
    "378282246310005",
    "6011111111111117",
    "30569309025904",
    "3530111333300000",
    "6062825624254001",
  ])("accepts %s", (number) => expect(passesLuhn(number)).toBe(true));

  it.each([
    ["one digit changed", "4111111111111112"],
    ["too short", "41111111111"],
    ["too long", "41111111111111111111"],
    ["spaces", "4111 1111 1111 1111"],
    ["letters", "411111111111111a"],
    ["empty", ""],
  ])("rejects %s", (_label, number) => expect(passesLuhn(number)).toBe(false));
});

describe("detectCardBrand", () => {
  it.each([
    ["4111111111111111", "visa", "1"],
    ["5555555555554444", "mastercard", "2"],
    ["2223000048400011", "mastercard", "2"],
    ["378282246310005", "amex", "3"],
    ["6362970000457013", "elo", "4"],
    ["5067230000000000", "elo", "4"],
    ["4389350000000000", "elo", "4"],
    ["6062825624254001", "hipercard", "5"],
    ["30569309025904", "diners", "6"],
    ["6011111111111117", "discover", "7"],
    ["3530111333300000", "jcb", "8"],
  ])("reads %s as %s (code %s)", (number, brand, code) => {
    expect(detectCardBrand(number)).toEqual({ brand, bandeiraCartao: code });
  });

  it("returns null for unknown prefixes and malformed numbers", () => {
    expect(detectCardBrand("9999999999999995")).toBeNull();
    expect(detectCardBrand("4111-1111")).toBeNull();
  });
});

describe("bandeiraCartao table", () => {
  it("has one distinct code per brand and maps back", () => {
    const codes = Object.values(BANDEIRA_CARTAO_BY_BRAND);
    expect(new Set(codes).size).toBe(codes.length);
    expect(brandFromBandeiraCartao("2")).toBe("mastercard");
    expect(brandFromBandeiraCartao("99")).toBeNull();
  });
});

describe("masking", () => {
  it("keeps only the BIN and the last four digits", () => {
    expect(cardBin("4111111111111111")).toBe("411111");
    expect(maskCardNumber("5555555555554444")).toBe("4444");
  });
});

describe("card expiry", () => {
  const now = new Date("2026-05-15T12:00:00Z");

  it("accepts the current month and later", () => {
    expect(isCardExpiryValid("05/26", now)).toBe(true);
    expect(isCardExpiryValid("01/27", now)).toBe(true);
  });

  it("rejects past months and bad formats", () => {
    expect(isCardExpiryValid("04/26", now)).toBe(false);
    expect(isCardExpiryValid("12/25", now)).toBe(false);
    expect(isCardExpiryValid("13/27", now)).toBe(false);
    expect(isCardExpiryValid("1/27", now)).toBe(false);
    expect(isCardExpiryFormat("12/30")).toBe(true);
    expect(isCardExpiryFormat("12/2030")).toBe(false);
  });
});
