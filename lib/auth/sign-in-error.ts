const rateLimitedPrefix = "RateLimited:";
const twoFactorRequiredError = "TWO_FACTOR_REQUIRED";
export const passkeyCounterRegressedError = "PASSKEY_COUNTER_REGRESSED";
export const ssoRequiredError = "SSO_REQUIRED";

export type TSecondFactorMethod = "totp" | "passkey";

export type TSignInError =
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "two-factor-required"; methods: TSecondFactorMethod[] }
  | { kind: "passkey-counter-regressed" }
  | { kind: "sso-required" }
  | { kind: "invalid" };

export function formatRateLimitedError(retryAfterSeconds: number): string {
  return `${rateLimitedPrefix}${retryAfterSeconds}`;
}

// Sent only after the right password, so naming the user's factors reveals nothing to a guesser.
export function formatTwoFactorRequiredError(methods: TSecondFactorMethod[]): string {
  return `${twoFactorRequiredError}:${methods.join("+")}`;
}

export function parseSignInError(error: string): TSignInError {
  if (error === twoFactorRequiredError) return { kind: "two-factor-required", methods: ["totp"] };
  if (error.startsWith(`${twoFactorRequiredError}:`)) {
    const named = error.slice(twoFactorRequiredError.length + 1).split("+");
    const methods = (["totp", "passkey"] as const).filter((method) => named.includes(method));
    if (methods.length > 0) return { kind: "two-factor-required", methods };
  }
  if (error === passkeyCounterRegressedError) return { kind: "passkey-counter-regressed" };
  if (error === ssoRequiredError) return { kind: "sso-required" };
  if (error.startsWith(rateLimitedPrefix)) {
    const seconds = Number(error.slice(rateLimitedPrefix.length));
    if (Number.isSafeInteger(seconds) && seconds > 0) return { kind: "rate-limited", retryAfterSeconds: seconds };
  }
  return { kind: "invalid" };
}
