import { describe, expect, it } from "vitest";
import {
  getLimitStatus,
  spacingDelayMs,
  type TAttemptSpacing,
  type TRateLimitRule,
  toRetryMinutes,
  toRetrySeconds,
} from "./rate-limit-window";

const rule: TRateLimitRule = { limit: 3, windowMs: 15 * 60_000 };
const t0 = new Date("2026-03-01T12:00:00Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

describe("getLimitStatus", () => {
  it("allows until the limit is reached, then says how long to wait", () => {
    const window = { windowStart: t0, count: 2, expiresAt: at(15) };
    expect(getLimitStatus(window, rule, at(1))).toEqual({ isLimited: false, retryAfterMs: 0 });
    expect(getLimitStatus({ ...window, count: 3 }, rule, at(3))).toEqual({
      isLimited: true,
      retryAfterMs: 12 * 60_000,
    });
  });

  it("lifts the limit when the window ends", () => {
    const full = { windowStart: t0, count: 3, expiresAt: at(15) };
    expect(getLimitStatus(full, rule, at(14.99)).isLimited).toBe(true);
    expect(getLimitStatus(full, rule, at(15)).isLimited).toBe(false);
  });

  it("allows when nothing was counted", () => {
    expect(getLimitStatus(null, rule, t0).isLimited).toBe(false);
  });
});

describe("toRetryMinutes", () => {
  it("rounds up and never says zero", () => {
    expect(toRetryMinutes(12 * 60_000)).toBe(12);
    expect(toRetryMinutes(11 * 60_000 + 1)).toBe(12);
    expect(toRetryMinutes(500)).toBe(1);
  });
});

describe("spacingDelayMs", () => {
  const spacing: TAttemptSpacing = { freeAttempts: 5, maxDelayMs: 5 * 60_000, forgetAfterMs: 24 * 60 * 60_000 };

  it("lets the free attempts through, then doubles the wait from one second", () => {
    expect([0, 4].map((count) => spacingDelayMs(count, spacing))).toEqual([0, 0]);
    expect([5, 6, 7, 13].map((count) => spacingDelayMs(count, spacing))).toEqual([1000, 2000, 4000, 256_000]);
  });

  it("never asks for more than the cap, however many failures", () => {
    expect(spacingDelayMs(14, spacing)).toBe(5 * 60_000);
    expect(spacingDelayMs(10_000, spacing)).toBe(5 * 60_000);
  });
});

describe("toRetrySeconds", () => {
  it("rounds up and never says zero", () => {
    expect(toRetrySeconds(1000)).toBe(1);
    expect(toRetrySeconds(1001)).toBe(2);
    expect(toRetrySeconds(0)).toBe(1);
  });
});
