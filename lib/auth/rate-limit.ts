import "server-only";
import { db } from "@/lib/db/client";
import { getLimitStatus, type TRateLimitRule, type TRateLimitStatus, type TRateLimitWindow } from "./rate-limit-window";

// Counters live in the database so every app instance shares them.

export async function getRateLimitStatus(
  key: string,
  rule: TRateLimitRule,
  now = new Date(),
): Promise<TRateLimitStatus> {
  const bucket = await db.rateLimitBucket.findUnique({ where: { key } });
  return getLimitStatus(bucket, rule, now);
}

// One statement, so parallel hits are serialized by the row lock and each sees its own count:
// callers count first and act on the returned count, never check-then-count.
export async function countRateLimitHit(
  key: string,
  rule: TRateLimitRule,
  now = new Date(),
): Promise<TRateLimitWindow> {
  const expiresAt = new Date(now.getTime() + rule.windowMs);
  const [window] = await db.$queryRaw<TRateLimitWindow[]>`
    INSERT INTO "RateLimitBucket" AS bucket ("key", "windowStart", "count", "expiresAt")
    VALUES (${key}, ${now}, 1, ${expiresAt})
    ON CONFLICT ("key") DO UPDATE SET
      "windowStart" = CASE WHEN bucket."expiresAt" > ${now} THEN bucket."windowStart" ELSE EXCLUDED."windowStart" END,
      "count" = CASE WHEN bucket."expiresAt" > ${now} THEN bucket."count" + 1 ELSE 1 END,
      "expiresAt" = CASE WHEN bucket."expiresAt" > ${now} THEN bucket."expiresAt" ELSE EXCLUDED."expiresAt" END
    RETURNING "windowStart", "count", "expiresAt"`;
  if (!window) throw new Error(`rate limit bucket ${key} was not written`);
  return window;
}

// Gives back a hit counted up front for an attempt that turned out to succeed.
export async function refundRateLimitHit(key: string): Promise<void> {
  await db.$executeRaw`UPDATE "RateLimitBucket" SET "count" = GREATEST("count" - 1, 0) WHERE "key" = ${key}`;
}

export async function resetRateLimit(key: string): Promise<void> {
  await db.rateLimitBucket.deleteMany({ where: { key } });
}
