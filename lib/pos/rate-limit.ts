// In process memory: a database counter would add a write per request on one hot row. N instances allow up to N ×
// the rate; the limit guards against a runaway client, not a precise quota.

export type TPosRateLimitRule = { perSecond: number; burst: number };

function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const defaultPosRateLimitRule: TPosRateLimitRule = {
  perSecond: envNumber("POS_RATE_LIMIT_PER_SECOND", 50),
  burst: envNumber("POS_RATE_LIMIT_BURST", 100),
};

type TBucket = { tokens: number; updatedAt: number };

export class PosRateLimiter {
  private readonly buckets = new Map<string, TBucket>();

  constructor(
    public rule: TPosRateLimitRule = defaultPosRateLimitRule,
    private readonly maxKeys = 10_000,
  ) {}

  take(key: string, nowMs = Date.now()): number {
    const { perSecond, burst } = this.rule;
    const bucket = this.buckets.get(key) ?? { tokens: burst, updatedAt: nowMs };
    bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.updatedAt) / 1000) * perSecond);
    bucket.updatedAt = nowMs;
    if (!this.buckets.has(key)) {
      // Keys are few (one per tenant key); the bound only stops a leak. A full bucket is the default anyway.
      if (this.buckets.size >= this.maxKeys) this.buckets.clear();
      this.buckets.set(key, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
  }

  reset(): void {
    this.buckets.clear();
  }
}

export const posRateLimiter = new PosRateLimiter();
