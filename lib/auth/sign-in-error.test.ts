import { describe, expect, it } from "vitest";
import {
  formatRateLimitedError,
  formatTwoFactorRequiredError,
  parseSignInError,
  passkeyCounterRegressedError,
} from "./sign-in-error";

describe("parseSignInError", () => {
  it("reads back the minutes to wait", () => {
    expect(parseSignInError(formatRateLimitedError(12))).toEqual({ kind: "rate-limited", retryAfterSeconds: 12 });
  });

  it("recognises the request for a second factor and which ones the user has", () => {
    expect(parseSignInError(formatTwoFactorRequiredError(["totp"]))).toEqual({
      kind: "two-factor-required",
      methods: ["totp"],
    });
    expect(parseSignInError(formatTwoFactorRequiredError(["totp", "passkey"]))).toEqual({
      kind: "two-factor-required",
      methods: ["totp", "passkey"],
    });
    expect(parseSignInError("TWO_FACTOR_REQUIRED")).toEqual({ kind: "two-factor-required", methods: ["totp"] });
  });

  it("recognises a passkey whose counter went backwards", () => {
    expect(parseSignInError(passkeyCounterRegressedError)).toEqual({ kind: "passkey-counter-regressed" });
  });

  it("treats anything else as wrong credentials", () => {
    for (const error of [
      "CredentialsSignin",
      "RateLimited:",
      "RateLimited:-3",
      "RateLimited:abc",
      "",
      "TWO_FACTOR_REQUIRED:x",
    ]) {
      expect(parseSignInError(error)).toEqual({ kind: "invalid" });
    }
  });
});
