import "server-only";
import { db } from "@/lib/db/client";
import {
  countHit,
  getLimitStatus,
  type TRateLimitRule,
  type TRateLimitStatus,
  type TRateLimitWindow,
} from "./rate-limit-window";

// Counters live in the database so every app instance shares them.

export async function getRateLimitStatus(
  key: string,
  rule: TRateLimitRule,
  now = new Date(),
): Promise<TRateLimitStatus> {
  const bucket = await db.rateLimitBucket.findUnique({ where: { key } });
  return getLimitStatus(bucket, rule, now);
}

export async function countRateLimitHit(
  key: string,
  rule: TRateLimitRule,
  now = new Date(),
): Promise<TRateLimitWindow> {
  return db.$transaction(async (tx) => {
    // An empty, already-expired row first, so concurrent first hits lock the same row
    // instead of racing on the insert.
    await tx.$executeRaw`
      INSERT INTO "RateLimitBucket" ("key", "windowStart", "count", "expiresAt")
      VALUES (${key}, ${now}, 0, ${now})
      ON CONFLICT ("key") DO NOTHING`;
    const [current] = await tx.$queryRaw<TRateLimitWindow[]>`
      SELECT "windowStart", "count", "expiresAt" FROM "RateLimitBucket" WHERE "key" = ${key} FOR UPDATE`;
    const next = countHit(current ?? null, rule, now);
    await tx.rateLimitBucket.update({ where: { key }, data: next });
    return next;
  });
}

export async function resetRateLimit(key: string): Promise<void> {
  await db.rateLimitBucket.deleteMany({ where: { key } });
}
