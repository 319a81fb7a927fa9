import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { countRateLimitHit, getRateLimitStatus, resetRateLimit } from "./rate-limit";

const rule = { limit: 3, windowMs: 60_000 };
const t0 = new Date("2026-03-01T12:00:00Z");

describe("rate limit buckets", () => {
  beforeEach(async () => {
    await db.rateLimitBucket.deleteMany();
  });

  it("counts hits in the database and limits at the rule's limit", async () => {
    for (let hit = 0; hit < 3; hit += 1) await countRateLimitHit("k", rule, t0);
    expect(await getRateLimitStatus("k", rule, new Date(t0.getTime() + 20_000))).toEqual({
      isLimited: true,
      retryAfterMs: 40_000,
    });
    expect((await getRateLimitStatus("other", rule, t0)).isLimited).toBe(false);
  });

  it("counts concurrent hits without losing any", async () => {
    await Promise.all(Array.from({ length: 8 }, () => countRateLimitHit("busy", rule, t0)));
    expect(await db.rateLimitBucket.findUnique({ where: { key: "busy" } })).toMatchObject({ count: 8 });
  });

  it("starts a new window after the old one ends, and resets on demand", async () => {
    for (let hit = 0; hit < 3; hit += 1) await countRateLimitHit("k", rule, t0);
    const later = new Date(t0.getTime() + 60_000);
    expect(await countRateLimitHit("k", rule, later)).toMatchObject({ count: 1, windowStart: later });
    await resetRateLimit("k");
    expect(await db.rateLimitBucket.count()).toBe(0);
  });
});
