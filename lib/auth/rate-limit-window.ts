// Pure, so the window arithmetic is tested without a database; the counting itself is one SQL upsert (rate-limit.ts).
export type TRateLimitRule = { limit: number; windowMs: number };
export type TRateLimitWindow = { windowStart: Date; count: number; expiresAt: Date };
export type TRateLimitStatus = { isLimited: boolean; retryAfterMs: number };

function isOpen(window: TRateLimitWindow | null, now: Date): window is TRateLimitWindow {
  return window !== null && window.expiresAt.getTime() > now.getTime();
}

export function getLimitStatus(window: TRateLimitWindow | null, rule: TRateLimitRule, now: Date): TRateLimitStatus {
  if (!isOpen(window, now) || window.count < rule.limit) return { isLimited: false, retryAfterMs: 0 };
  return { isLimited: true, retryAfterMs: window.expiresAt.getTime() - now.getTime() };
}

// People read "try again in N minutes"; rounding up never tells them to come back too early.
export function toRetryMinutes(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 60_000));
}

// Spacing instead of a lock: the first `freeAttempts` failures go through at once; after that the Nth counted
// failure makes the next attempt wait 2^(N - freeAttempts) seconds, up to `maxDelayMs`. Nothing is ever refused for
// longer than the cap, so a stranger's failures slow the owner down for at most that long. Counts are forgotten
// `forgetAfterMs` after the last counted failure.
export type TAttemptSpacing = { freeAttempts: number; maxDelayMs: number; forgetAfterMs: number };

export function spacingDelayMs(countedFailures: number, spacing: TAttemptSpacing): number {
  if (countedFailures < spacing.freeAttempts) return 0;
  // 2^31 s is far past any cap: stop the exponent there so the number stays exact.
  const exponent = Math.min(countedFailures - spacing.freeAttempts, 31);
  return Math.min(spacing.maxDelayMs, 2 ** exponent * 1000);
}

// "Try again in N seconds"; rounding up never tells anyone to come back too early.
export function toRetrySeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}
