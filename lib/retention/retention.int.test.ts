import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { runRetention } from "./retention";

const now = new Date();
const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 60 * 60_000);
const days = {
  webhookDeliveries: 90,
  auditLog: 400,
  rateLimitBuckets: 1,
  idempotencyKeys: 30,
  mailMessages: 30,
  gatewayCallMinutes: 30,
};

async function delivery(receivedAt: Date) {
  return db.webhookDelivery.create({
    data: { pathId: "x", headers: {}, rawBody: Buffer.alloc(0), signatureValid: false, outcome: "STALE", receivedAt },
  });
}

describe("retention job", () => {
  beforeEach(async () => {
    await db.webhookDelivery.deleteMany();
    await db.auditLog.deleteMany();
    // Whole tables: rows an earlier file of this worker left behind (backdated limiter buckets, old keys) would be
    // deleted too and change the counts.
    await db.rateLimitBucket.deleteMany();
    await db.idempotencyKey.deleteMany();
    await db.mailMessage.deleteMany();
    await db.gatewayCallMinute.deleteMany();
  });

  it("deletes what is older than its retention and keeps what is recent", async () => {
    const oldDelivery = await delivery(daysAgo(91));
    const recentDelivery = await delivery(daysAgo(89));
    await db.auditLog.createMany({
      data: [
        { action: "retention.old", occurredAt: daysAgo(401) },
        { action: "retention.recent", occurredAt: daysAgo(399) },
      ],
    });
    const bucket = (key: string, expiresAt: Date) => ({
      key: `retention-test:${key}`,
      windowStart: expiresAt,
      count: 1,
      expiresAt,
    });
    await db.rateLimitBucket.createMany({
      data: [
        bucket("expired-long-ago", daysAgo(2)),
        bucket("expired-recently", daysAgo(0.5)),
        bucket("open", daysAgo(-1)),
      ],
    });
    const key = (name: string, status: "PENDING" | "SUCCEEDED" | "FAILED", updatedAt: Date) => ({
      scope: "retention-test",
      key: name,
      status,
      lockedUntil: updatedAt,
      updatedAt,
    });
    await db.idempotencyKey.createMany({
      data: [
        key("old-succeeded", "SUCCEEDED", daysAgo(31)),
        key("old-failed", "FAILED", daysAgo(31)),
        key("old-pending", "PENDING", daysAgo(31)),
        key("recent-succeeded", "SUCCEEDED", daysAgo(29)),
      ],
    });

    const mail = (subject: string, createdAt: Date) => ({
      to: "retention@example.com",
      template: "invitation",
      locale: "en",
      subject,
      transport: "OUTBOX" as const,
      status: "SENT" as const,
      createdAt,
    });
    await db.mailMessage.createMany({ data: [mail("old", daysAgo(31)), mail("recent", daysAgo(29))] });
    const tally = (operation: string, minute: Date) => ({
      operation,
      minute,
      calls: 1,
      failures: 0,
      clientErrors: 0,
      durationMsSum: 10,
      latencyBuckets: [],
    });
    await db.gatewayCallMinute.createMany({ data: [tally("old", daysAgo(31)), tally("recent", daysAgo(29))] });

    expect(await runRetention({ now, days })).toEqual({
      webhookDeliveries: 1,
      auditLog: 1,
      rateLimitBuckets: 1,
      idempotencyKeys: 2,
      mailMessages: 1,
      gatewayCallMinutes: 1,
    });
    expect((await db.webhookDelivery.findMany({ select: { id: true } })).map((row) => row.id)).toEqual([
      recentDelivery.id,
    ]);
    expect(await db.webhookDelivery.findUnique({ where: { id: oldDelivery.id } })).toBeNull();
    expect((await db.auditLog.findMany({ select: { action: true } })).map((row) => row.action)).toEqual([
      "retention.recent",
    ]);
    const buckets = await db.rateLimitBucket.findMany({ where: { key: { startsWith: "retention-test:" } } });
    expect(buckets.map((row) => row.key).sort()).toEqual(["retention-test:expired-recently", "retention-test:open"]);
    const keys = await db.idempotencyKey.findMany({ where: { scope: "retention-test" } });
    expect(keys.map((row) => row.key).sort()).toEqual(["old-pending", "recent-succeeded"]);
    expect((await db.mailMessage.findMany({ select: { subject: true } })).map((row) => row.subject)).toEqual([
      "recent",
    ]);
    expect((await db.gatewayCallMinute.findMany({ select: { operation: true } })).map((row) => row.operation)).toEqual([
      "recent",
    ]);
  });

  it("deletes in batches until nothing old is left", async () => {
    await db.$executeRaw`
      INSERT INTO "WebhookDelivery" ("id", "pathId", "headers", "rawBody", "signatureValid", "outcome", "receivedAt")
      SELECT gen_random_uuid(), 'x', '{}', '', false, 'STALE', ${daysAgo(100)} FROM generate_series(1, 12000)`;
    await delivery(daysAgo(1));
    expect((await runRetention({ now, days })).webhookDeliveries).toBe(12_000);
    expect(await db.webhookDelivery.count()).toBe(1);
  });
});
