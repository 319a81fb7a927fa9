import { describe, expect, it } from "vitest";
import { toSameOriginPath } from "./callback-url";

const origin = "https://dashboard.example.com";

describe("toSameOriginPath", () => {
  it("keeps paths on this site, with their query and fragment", () => {
    expect(toSameOriginPath("/", origin)).toBe("/");
    expect(toSameOriginPath("/pix/charges?status=PAID#top", origin)).toBe("/pix/charges?status=PAID#top");
    expect(toSameOriginPath("/links/abc%2Fdef", origin)).toBe("/links/abc%2Fdef");
    expect(toSameOriginPath("/%09/evil.com", origin)).toBe("/%09/evil.com");
    expect(toSameOriginPath(`${origin}/users`, origin)).toBe("/users");
    expect(toSameOriginPath("users", origin)).toBe("/users");
  });

  it.each([
    ["tab", "/\t/evil.com"],
    ["newline", "/\n/evil.com"],
    ["carriage return", "/\r\n/evil.com"],
    ["backslash", "/\\evil.com"],
    ["two backslashes", "\\\\evil.com"],
    ["protocol-relative", "//evil.com"],
    ["protocol-relative with path", "//evil.com/login"],
    ["absolute", "https://evil.com"],
    ["absolute, other scheme", "http://dashboard.example.com/"],
    ["other port", "https://dashboard.example.com:8443/"],
    ["user info", "https://dashboard.example.com@evil.com/"],
    ["javascript", "javascript:alert(1)"],
    ["data", "data:text/html,<script>alert(1)</script>"],
    ["leading spaces", "  //evil.com"],
    ["same origin, doubled slash path", "https://dashboard.example.com//evil.com"],
    ["same origin, backslash path", "https://dashboard.example.com/\\evil.com"],
    ["tab in the scheme", "ht\ttps://evil.com"],
  ])("sends %s elsewhere home instead", (_, value) => {
    expect(toSameOriginPath(value, origin)).toBe("/");
  });

  it("refuses the decoded forms of encoded attacks, as a query string delivers them", () => {
    for (const query of [
      "callbackUrl=%2F%09%2Fevil.com",
      "callbackUrl=%2F%0A%2Fevil.com",
      "callbackUrl=%2F%5Cevil.com",
      "callbackUrl=%2F%2Fevil.com",
      "callbackUrl=https%3A%2F%2Fevil.com",
    ]) {
      expect(toSameOriginPath(new URLSearchParams(query).get("callbackUrl"), origin)).toBe("/");
    }
  });

  it("falls back home for nothing or non-strings", () => {
    for (const value of [undefined, null, "", ["/users"], 42]) expect(toSameOriginPath(value, origin)).toBe("/");
  });
});
