import "server-only";
import { claimSpacedAttempt, refundSpacedAttempt, resetRateLimit } from "./rate-limit";
import { type TAttemptSpacing, toRetrySeconds } from "./rate-limit-window";

// Per account stops guessing one password; per IP stops spraying. The IP allows more free failures (shared offices)
// but its delay grows to an hour vs 5 minutes per account, so the owner is never locked out.
export const signInSpacing = {
  account: { freeAttempts: 5, maxDelayMs: 5 * 60_000, forgetAfterMs: 24 * 60 * 60_000 },
  ip: { freeAttempts: 10, maxDelayMs: 60 * 60_000, forgetAfterMs: 24 * 60 * 60_000 },
} satisfies Record<string, TAttemptSpacing>;

export const accountLimitKey = (email: string) => `sign-in:account:${email}`;
export const ipLimitKey = (ip: string) => `sign-in:ip:${ip}`;

export type TPasswordAttempt =
  | { status: "allowed" }
  | { status: "rate-limited"; scope: "account" | "ip"; retryAfterSeconds: number };

// Claimed before the hash runs, so parallel guesses each count; a success gives its claims back. No e-mail (a passkey
// nobody holds) counts against the address alone.
export async function claimPasswordAttempt(
  email: string | null,
  ip: string | null,
  now = new Date(),
): Promise<TPasswordAttempt> {
  const limits = [
    ...(ip ? [{ scope: "ip" as const, key: ipLimitKey(ip), spacing: signInSpacing.ip }] : []),
    ...(email ? [{ scope: "account" as const, key: accountLimitKey(email), spacing: signInSpacing.account }] : []),
  ];
  // Sequential (the embedded database runs one statement at a time), IP first, so a waiting address spares the account.
  for (const { scope, key, spacing } of limits) {
    const claim = await claimSpacedAttempt(key, spacing, now);
    if (claim.status === "delayed") {
      return { status: "rate-limited", scope, retryAfterSeconds: toRetrySeconds(claim.retryAfterMs) };
    }
  }
  return { status: "allowed" };
}

// A right password awaiting the code step is no guess: both claims go back, earlier wrong codes stay counted.
export async function givePasswordAttemptBack(email: string, ip: string | null): Promise<void> {
  await refundSpacedAttempt(accountLimitKey(email), signInSpacing.account);
  if (ip) await refundSpacedAttempt(ipLimitKey(ip), signInSpacing.ip);
}

export async function settlePasswordAttempt(email: string, ip: string | null, isSuccess: boolean): Promise<void> {
  if (!isSuccess) return;
  await resetRateLimit(accountLimitKey(email));
  if (ip) await refundSpacedAttempt(ipLimitKey(ip), signInSpacing.ip);
}
