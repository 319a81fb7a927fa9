import { describe, expect, it } from "vitest";

import { formatCardNumber, formatExpiry, guessCardBrand } from "./card-input-format";

describe("card input formatting", () => {
  it("groups by four and cuts at 19 digits", () => {
    expect(formatCardNumber("4111111111111111")).toBe("4111 1111 1111 1111");
    expect(formatCardNumber("4111 1111-111")).toBe("4111 1111 111");
    expect(formatCardNumber("41111111111111112222999")).toBe("4111 1111 1111 1111 222");
  });

  it("groups Amex 4-6-5 and cuts at 15", () => {
    expect(formatCardNumber("378282246310005999")).toBe("3782 822463 10005");
  });

  it("detects the brand from the prefix", () => {
    expect(guessCardBrand("5555")).toBe("mastercard");
    expect(guessCardBrand("4111")).toBe("visa");
    expect(guessCardBrand("411")).toBeNull();
  });

  it("formats the expiry as MM/YY", () => {
    expect(formatExpiry("4")).toBe("04");
    expect(formatExpiry("1")).toBe("1");
    expect(formatExpiry("1230")).toBe("12/30");
    expect(formatExpiry("12/3")).toBe("12/3");
  });
});
