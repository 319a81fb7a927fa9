// Fixed-window counting, kept pure so the window arithmetic is tested without a database.
// A window opens at the first counted hit and lasts `windowMs`; once it ends the count starts over.
export type RateLimitRule = { limit: number; windowMs: number };
export type RateLimitWindow = { windowStart: Date; count: number; expiresAt: Date };
export type RateLimitStatus = { isLimited: boolean; retryAfterMs: number };

function isOpen(window: RateLimitWindow | null, now: Date): window is RateLimitWindow {
  return window !== null && window.expiresAt.getTime() > now.getTime();
}

export function countHit(window: RateLimitWindow | null, rule: RateLimitRule, now: Date): RateLimitWindow {
  if (isOpen(window, now)) return { ...window, count: window.count + 1 };
  return { windowStart: now, count: 1, expiresAt: new Date(now.getTime() + rule.windowMs) };
}

export function getLimitStatus(window: RateLimitWindow | null, rule: RateLimitRule, now: Date): RateLimitStatus {
  if (!isOpen(window, now) || window.count < rule.limit) return { isLimited: false, retryAfterMs: 0 };
  return { isLimited: true, retryAfterMs: window.expiresAt.getTime() - now.getTime() };
}

// People read "try again in N minutes"; rounding up never tells them to come back too early.
export function toRetryMinutes(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 60_000));
}
