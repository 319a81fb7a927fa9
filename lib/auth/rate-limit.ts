import "server-only";
import { db } from "@/lib/db/client";
import { isoUtc, runSql } from "@/lib/db/sql";
import { Prisma } from "@/lib/generated/prisma/client";
import {
  getLimitStatus,
  spacingDelayMs,
  type TAttemptSpacing,
  type TRateLimitRule,
  type TRateLimitStatus,
  type TRateLimitWindow,
} from "./rate-limit-window";

export async function getRateLimitStatus(
  key: string,
  rule: TRateLimitRule,
  now = new Date(),
): Promise<TRateLimitStatus> {
  const bucket = await db.rateLimitBucket.findUnique({ where: { key } });
  return getLimitStatus(bucket, rule, now);
}

// One statement: the row lock serializes parallel hits and each sees its own count, so never check-then-count.
const countHitSql = `
INSERT INTO "RateLimitBucket" AS bucket ("key", "windowStart", "count", "expiresAt")
VALUES ($1::text, ($2::timestamptz AT TIME ZONE 'UTC'), 1, ($3::timestamptz AT TIME ZONE 'UTC'))
ON CONFLICT ("key") DO UPDATE SET
  "windowStart" = CASE WHEN bucket."expiresAt" > EXCLUDED."windowStart" THEN bucket."windowStart" ELSE EXCLUDED."windowStart" END,
  "count" = CASE WHEN bucket."expiresAt" > EXCLUDED."windowStart" THEN bucket."count" + 1 ELSE 1 END,
  "expiresAt" = CASE WHEN bucket."expiresAt" > EXCLUDED."windowStart" THEN bucket."expiresAt" ELSE EXCLUDED."expiresAt" END
RETURNING ${isoUtc('"windowStart"')} AS "windowStart", "count", ${isoUtc('"expiresAt"')} AS "expiresAt"`;

export async function countRateLimitHit(
  key: string,
  rule: TRateLimitRule,
  now = new Date(),
): Promise<TRateLimitWindow> {
  const expiresAt = new Date(now.getTime() + rule.windowMs);
  const [window] = await runSql<{ windowStart: string; count: number; expiresAt: string }>(countHitSql, [
    key,
    now.toISOString(),
    expiresAt.toISOString(),
  ]);
  if (!window) throw new Error(`rate limit bucket ${key} was not written`);
  return { windowStart: new Date(window.windowStart), count: window.count, expiresAt: new Date(window.expiresAt) };
}

export async function refundRateLimitHit(key: string, counted: TRateLimitWindow): Promise<void> {
  await db.rateLimitBucket.updateMany({
    where: { key, windowStart: counted.windowStart, count: { gt: 0 } },
    data: { count: { decrement: 1 } },
  });
}

export async function resetRateLimit(key: string): Promise<void> {
  await db.rateLimitBucket.deleteMany({ where: { key } });
}

export type TSpacedAttempt = { status: "allowed"; count: number } | { status: "delayed"; retryAfterMs: number };

// Checked and counted in one statement under the row's lock: of a parallel burst only one is evaluated, the rest
// wait; a waiting attempt is not counted, so hammering does not lengthen the delay.
export async function claimSpacedAttempt(
  key: string,
  spacing: TAttemptSpacing,
  now = new Date(),
): Promise<TSpacedAttempt> {
  const forgetAt = new Date(now.getTime() + spacing.forgetAfterMs);
  const [claimed] = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO "RateLimitBucket" AS bucket ("key", "windowStart", "count", "expiresAt", "lastHitAt")
    VALUES (${key}, ${now}, 1, ${forgetAt}, ${now})
    ON CONFLICT ("key") DO UPDATE SET
      "windowStart" = CASE WHEN bucket."expiresAt" > ${now} THEN bucket."windowStart" ELSE EXCLUDED."windowStart" END,
      "count" = CASE WHEN bucket."expiresAt" > ${now} THEN bucket."count" + 1 ELSE 1 END,
      "expiresAt" = EXCLUDED."expiresAt",
      "lastHitAt" = EXCLUDED."lastHitAt"
    WHERE bucket."expiresAt" <= ${now}
      OR bucket."count" < ${spacing.freeAttempts}::int
      OR bucket."lastHitAt" IS NULL
      OR bucket."lastHitAt" + ${spacingDelaySql(spacing)} <= ${now}
    RETURNING "count"`;
  if (claimed) return { status: "allowed", count: claimed.count };
  const bucket = await db.rateLimitBucket.findUnique({ where: { key } });
  const delayMs = spacingDelayMs(bucket?.count ?? 0, spacing);
  const retryAfterMs = (bucket?.lastHitAt?.getTime() ?? now.getTime()) + delayMs - now.getTime();
  return { status: "delayed", retryAfterMs: Math.max(retryAfterMs, 1000) };
}

function spacingDelaySql(spacing: TAttemptSpacing, count: Prisma.Sql = Prisma.sql`bucket."count"`): Prisma.Sql {
  return Prisma.sql`(CASE WHEN ${count} < ${spacing.freeAttempts}::int THEN 0
    ELSE LEAST(${spacing.maxDelayMs / 1000}::float8, power(2::float8, LEAST(${count} - ${spacing.freeAttempts}::int, 31)))
    END) * interval '1 second'`;
}

// `lastHitAt` moves back by the delay it had imposed, so the next attempt may come at once.
export async function refundSpacedAttempt(key: string, spacing: TAttemptSpacing): Promise<void> {
  const counted = Prisma.sql`GREATEST("count" - 1, 0)`;
  await db.$executeRaw`
    UPDATE "RateLimitBucket" AS bucket
    SET "count" = ${counted}, "lastHitAt" = bucket."lastHitAt" - ${spacingDelaySql(spacing, counted)}
    WHERE "key" = ${key}`;
}
