import { describe, expect, it } from "vitest";

import { escapeLike, isDocumentDigits, toSearchTerms, ZSearchQuery } from "./schemas";

describe("ZSearchQuery", () => {
  it("trims and accepts two characters or more", () => {
    expect(ZSearchQuery.parse({ q: "  ab " })).toEqual({ q: "ab" });
  });

  it("refuses a missing, too short or too long query with a message key", () => {
    expect(ZSearchQuery.safeParse({}).error?.issues[0]?.message).toBe("searchQueryRequired");
    expect(ZSearchQuery.safeParse({ q: " a " }).error?.issues[0]?.message).toBe("searchQueryTooShort");
    expect(ZSearchQuery.safeParse({ q: "x".repeat(101) }).error?.issues[0]?.message).toBe("searchQueryTooLong");
  });
});

describe("toSearchTerms", () => {
  it("keeps the digits of a CPF or CNPJ typed with punctuation", () => {
    expect(toSearchTerms("123.456.789-09")).toMatchObject({ digits: "12345678909", namePrefix: null });
    expect(toSearchTerms("11.222.333/0001-81")).toMatchObject({ digits: "11222333000181" });
    expect(toSearchTerms("4242")).toMatchObject({ text: "4242", digits: "4242" });
  });

  it("has no digits for a query with letters, and a name prefix instead", () => {
    expect(toSearchTerms("João  da Silva")).toEqual({
      text: "João  da Silva",
      digits: null,
      namePrefix: "João da Silva",
    });
    expect(toSearchTerms("abc123")).toMatchObject({ digits: null, namePrefix: "abc123" });
  });

  it("escapes LIKE wildcards so they match literally", () => {
    expect(escapeLike("100%_a\\b")).toBe("100\\%\\_a\\\\b");
    expect(toSearchTerms("ana_%")).toMatchObject({ namePrefix: "ana\\_\\%" });
  });
});

describe("isDocumentDigits", () => {
  it("is a CPF's 11 or a CNPJ's 14 digits", () => {
    expect(isDocumentDigits("12345678909")).toBe(true);
    expect(isDocumentDigits("11222333000181")).toBe(true);
    expect(isDocumentDigits("4242")).toBe(false);
    expect(isDocumentDigits(null)).toBe(false);
  });
});
