const rateLimitedPrefix = "RateLimited:";
export const twoFactorRequiredError = "TWO_FACTOR_REQUIRED";

export type TSignInError =
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "two-factor-required" }
  | { kind: "invalid" };

export function formatRateLimitedError(retryAfterSeconds: number): string {
  return `${rateLimitedPrefix}${retryAfterSeconds}`;
}

export function parseSignInError(error: string): TSignInError {
  if (error === twoFactorRequiredError) return { kind: "two-factor-required" };
  if (error.startsWith(rateLimitedPrefix)) {
    const seconds = Number(error.slice(rateLimitedPrefix.length));
    if (Number.isSafeInteger(seconds) && seconds > 0) return { kind: "rate-limited", retryAfterSeconds: seconds };
  }
  return { kind: "invalid" };
}
