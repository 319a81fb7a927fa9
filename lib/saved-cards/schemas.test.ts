import { describe, expect, it } from "vitest";
import en from "@/lib/i18n/messages/en.json";
import ptBR from "@/lib/i18n/messages/pt-BR.json";
import {
  ZAddCardInput,
  ZCardExpiry,
  ZCardNumber,
  ZCardTokenFilters,
  ZCustomerId,
  ZLookUpCardTokenInput,
  ZRefreshCardTokensPageInput,
} from "./schemas";

const issueOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

// Two years ahead, whatever today is.
const futureExpiry = `12/${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, "0")}`;

describe("ZCardNumber", () => {
  it("keeps digits only, as people type them with spaces or dashes", () => {
    expect(ZCardNumber.parse("4111 1111-1111 1111")).toBe("4111111111111111");
  });

  it.each([
    ["", "numberRequired"],
    ["4111", "invalidNumber"],
    ["4111111111111112", "invalidNumber"],
    ["41111111111111a1", "invalidNumber"],
    // Passes Luhn, but no brand starts with 9.
    ["9111111111111110", "unknownBrand"],
  ])("refuses %j with %s", (value, key) => {
    expect(issueOf(ZCardNumber.safeParse(value))).toBe(key);
  });
});

describe("ZCardExpiry", () => {
  it("accepts a month still to come, and the current month", () => {
    expect(ZCardExpiry.parse(futureExpiry)).toBe(futureExpiry);
    const now = new Date();
    const current = `${String(now.getUTCMonth() + 1).padStart(2, "0")}/${String(now.getUTCFullYear() % 100).padStart(2, "0")}`;
    expect(ZCardExpiry.safeParse(current).success).toBe(true);
  });

  it.each([
    ["", "expiryRequired"],
    ["13/30", "invalidExpiry"],
    ["1/30", "invalidExpiry"],
    ["01/2030", "invalidExpiry"],
    ["01/20", "cardExpired"],
  ])("refuses %j with %s", (value, key) => {
    expect(issueOf(ZCardExpiry.safeParse(value))).toBe(key);
  });
});

describe("ZAddCardInput", () => {
  it("drops an empty customer id", () => {
    expect(ZAddCardInput.parse({ number: "5555555555554444", expiry: futureExpiry, customerId: "  " })).toEqual({
      number: "5555555555554444",
      expiry: futureExpiry,
      customerId: undefined,
    });
  });

  it("refuses a customer id that is too long or has odd characters", () => {
    expect(issueOf(ZCustomerId.safeParse("x".repeat(101)))).toBe("customerIdTooLong");
    expect(issueOf(ZCustomerId.safeParse("a b"))).toBe("invalidCustomerId");
    expect(ZCustomerId.parse("cliente-42@loja")).toBe("cliente-42@loja");
  });
});

describe("ZLookUpCardTokenInput and ZRefreshCardTokensPageInput", () => {
  it("takes a token or a UUID, trimmed", () => {
    expect(ZLookUpCardTokenInput.parse({ query: "  0123abcd  " })).toEqual({ query: "0123abcd" });
    expect(ZLookUpCardTokenInput.safeParse({ query: "00000000-0000-4000-8000-000000000000" }).success).toBe(true);
    expect(issueOf(ZLookUpCardTokenInput.safeParse({ query: " " }))).toBe("tokenRequired");
    expect(issueOf(ZLookUpCardTokenInput.safeParse({ query: "a/b" }))).toBe("invalidToken");
  });

  it("counts refresh pages from 0", () => {
    expect(ZRefreshCardTokensPageInput.safeParse({ page: 0 }).success).toBe(true);
    expect(ZRefreshCardTokensPageInput.safeParse({ page: -1 }).success).toBe(false);
  });
});

describe("ZCardTokenFilters", () => {
  it("drops a bad value per field instead of failing the page", () => {
    expect(
      ZCardTokenFilters.parse({ status: "XYZ", brand: "99", lastFour: "12a4", sort: "nope", order: "up", page: "0" }),
    ).toEqual({
      status: undefined,
      brand: undefined,
      lastFour: undefined,
      customerId: undefined,
      token: undefined,
      sort: "createdAt",
      order: "desc",
      page: 1,
    });
  });

  it("reads good values", () => {
    expect(
      ZCardTokenFilters.parse({ status: "INA", brand: "2", lastFour: "4444", customerId: " c-1 ", page: "3" }),
    ).toMatchObject({ status: "INA", brand: "2", lastFour: "4444", customerId: "c-1", page: 3 });
  });
});

describe("cards messages", () => {
  const keys = [
    "numberRequired",
    "invalidNumber",
    "unknownBrand",
    "expiryRequired",
    "invalidExpiry",
    "cardExpired",
    "customerIdTooLong",
    "invalidCustomerId",
    "tokenRequired",
    "invalidToken",
    "notFound",
  ];

  it.each([
    ["en", en],
    ["pt-BR", ptBR],
  ])("%s has a message for every error key the schemas and the domain use", (_locale, messages) => {
    const errors = (messages as { cards: { errors: Record<string, string> } }).cards.errors;
    expect(keys.filter((key) => !errors[key])).toEqual([]);
  });

  it.each([
    ["en", en],
    ["pt-BR", ptBR],
  ])("%s names every brand code and both token states", (_locale, messages) => {
    const cards = (messages as { cards: { brands: Record<string, string>; status: Record<string, string> } }).cards;
    expect(Object.keys(cards.brands).sort()).toEqual(
      ["amex", "diners", "discover", "elo", "hipercard", "jcb", "mastercard", "visa"].sort(),
    );
    expect(Object.keys(cards.status).sort()).toEqual(["ATV", "INA"]);
  });
});
