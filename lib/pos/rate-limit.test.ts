import { describe, expect, it } from "vitest";
import { PosRateLimiter } from "./rate-limit";

describe("POS rate limiter (token bucket per key)", () => {
  it("allows the burst, then answers the seconds until a token is back, and refills at the rate", () => {
    const limiter = new PosRateLimiter({ perSecond: 2, burst: 3 });
    const t0 = 1_000_000;
    expect([limiter.take("k", t0), limiter.take("k", t0), limiter.take("k", t0)]).toEqual([0, 0, 0]);
    expect(limiter.take("k", t0)).toBe(1);
    expect(limiter.take("other", t0)).toBe(0);
    expect(limiter.take("k", t0 + 500)).toBe(0);
    expect(limiter.take("k", t0 + 500)).toBe(1);
  });

  it("never holds more than the burst after a long pause", () => {
    const limiter = new PosRateLimiter({ perSecond: 10, burst: 2 });
    expect(limiter.take("k", 0)).toBe(0);
    expect([limiter.take("k", 60_000), limiter.take("k", 60_000), limiter.take("k", 60_000)]).toEqual([0, 0, 1]);
  });
});
