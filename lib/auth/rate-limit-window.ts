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

export function toRetryMinutes(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 60_000));
}

// Spacing instead of a lock: after `freeAttempts` failures the Nth waits 2^(N - free) s, up to `maxDelayMs`, so a
// stranger's failures slow the owner down for at most that long; counts are forgotten `forgetAfterMs` after the last.
export type TAttemptSpacing = { freeAttempts: number; maxDelayMs: number; forgetAfterMs: number };

export function spacingDelayMs(countedFailures: number, spacing: TAttemptSpacing): number {
  if (countedFailures < spacing.freeAttempts) return 0;
  // 2^31 s is far past any cap: stop the exponent there so the number stays exact.
  const exponent = Math.min(countedFailures - spacing.freeAttempts, 31);
  return Math.min(spacing.maxDelayMs, 2 ** exponent * 1000);
}

export function toRetrySeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}
