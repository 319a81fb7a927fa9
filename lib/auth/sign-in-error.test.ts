import { describe, expect, it } from "vitest";
import { formatRateLimitedError, parseSignInError, twoFactorRequiredError } from "./sign-in-error";

describe("parseSignInError", () => {
  it("reads back the minutes to wait", () => {
    expect(parseSignInError(formatRateLimitedError(12))).toEqual({ kind: "rate-limited", retryAfterSeconds: 12 });
  });

  it("recognises the request for a second factor", () => {
    expect(parseSignInError(twoFactorRequiredError)).toEqual({ kind: "two-factor-required" });
  });

  it("treats anything else as wrong credentials", () => {
    for (const error of ["CredentialsSignin", "RateLimited:", "RateLimited:-3", "RateLimited:abc", ""]) {
      expect(parseSignInError(error)).toEqual({ kind: "invalid" });
    }
  });
});
