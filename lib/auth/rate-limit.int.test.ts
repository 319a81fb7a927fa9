import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import {
  claimSpacedAttempt,
  countRateLimitHit,
  getRateLimitStatus,
  refundRateLimitHit,
  refundSpacedAttempt,
  resetRateLimit,
} from "./rate-limit";

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

  it("gives a hit back to the window that counted it, never to the next one", async () => {
    const counted = await countRateLimitHit("k", rule, t0);
    await countRateLimitHit("k", rule, t0);
    await refundRateLimitHit("k", counted);
    expect(await db.rateLimitBucket.findUnique({ where: { key: "k" } })).toMatchObject({ count: 1 });
    const later = new Date(t0.getTime() + 60_000);
    await countRateLimitHit("k", rule, later);
    await refundRateLimitHit("k", counted);
    expect(await db.rateLimitBucket.findUnique({ where: { key: "k" } })).toMatchObject({
      count: 1,
      windowStart: later,
    });
  });
});

describe("spaced attempts", () => {
  const spacing = { freeAttempts: 2, maxDelayMs: 8_000, forgetAfterMs: 60 * 60_000 };
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

  beforeEach(async () => {
    await db.rateLimitBucket.deleteMany();
  });

  it("evaluates one attempt of a parallel burst once past the free attempts, and does not count the waiting ones", async () => {
    const burst = await Promise.all(Array.from({ length: 8 }, () => claimSpacedAttempt("s", spacing, t0)));
    expect(burst.filter((claim) => claim.status === "allowed")).toHaveLength(2);
    expect(await db.rateLimitBucket.findUnique({ where: { key: "s" } })).toMatchObject({ count: 2 });

    const next = await Promise.all(Array.from({ length: 8 }, () => claimSpacedAttempt("s", spacing, at(1))));
    expect(next.filter((claim) => claim.status === "allowed")).toHaveLength(1);
    expect(await claimSpacedAttempt("s", spacing, at(2))).toEqual({ status: "delayed", retryAfterMs: 1000 });
    expect(await claimSpacedAttempt("s", spacing, at(3))).toMatchObject({ status: "allowed", count: 4 });
  });

  it("never waits longer than the cap, and forgets after a quiet period", async () => {
    await db.rateLimitBucket.create({
      data: { key: "s", windowStart: t0, count: 40, expiresAt: at(3600), lastHitAt: t0 },
    });
    expect(await claimSpacedAttempt("s", spacing, at(7))).toEqual({ status: "delayed", retryAfterMs: 1000 });
    expect(await claimSpacedAttempt("s", spacing, at(8))).toMatchObject({ status: "allowed", count: 41 });
    expect(await claimSpacedAttempt("s", spacing, at(8 + 3600))).toMatchObject({ status: "allowed", count: 1 });
  });

  it("gives an attempt back so the next may come at once", async () => {
    for (let claim = 0; claim < 3; claim += 1) await claimSpacedAttempt("s", spacing, at(claim * 10));
    // Three counted: the next waits 2 s after the last (at 20 s).
    expect(await claimSpacedAttempt("s", spacing, at(21))).toMatchObject({ status: "delayed" });
    expect(await claimSpacedAttempt("s", spacing, at(22))).toMatchObject({ status: "allowed", count: 4 });
    await refundSpacedAttempt("s", spacing);
    expect(await claimSpacedAttempt("s", spacing, at(22))).toMatchObject({ status: "allowed", count: 4 });
  });
});
