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
