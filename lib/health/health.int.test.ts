import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { useAppDatabase } from "@/lib/testing/pglite";
import { type TTestBackend, testBackends } from "@/lib/testing/test-database";
import { flushGatewayCallMinutes, recordGatewayCall } from "./gateway-call-minutes";
import { readHealthReport } from "./health";

const now = new Date();
const ago = (ms: number) => new Date(now.getTime() - ms);
const hour = 3_600_000;

function cardPayment(id: string, occurredAt: Date, refused: boolean) {
  return {
    id,
    status: refused ? "NEG" : "CON",
    responseCode: refused ? "51" : "0",
    responseMessage: refused ? "Saldo insuficiente" : "ok",
    isApproved: !refused,
    amountCents: 1000,
    occurredAt,
    origin: "TERMINAL" as const,
    raw: {},
    syncedAt: now,
  };
}

describe.each<TTestBackend>(testBackends)("health report (%s)", (backend) => {
  useAppDatabase(backend);

  beforeEach(async () => {
    await flushGatewayCallMinutes();
    await db.gatewayCallMinute.deleteMany();
    await db.webhookDelivery.deleteMany();
    await db.cardPayment.deleteMany();
    await db.mirrorDrift.deleteMany();
  });

  it("reads gateway calls, webhook lag and failures, refusal rates and drift of the last 24 h", async () => {
    for (let call = 0; call < 9; call += 1) recordGatewayCall("getPixCharge", "answered", 20, ago(hour).getTime());
    recordGatewayCall("getPixCharge", "failure", 3_000, ago(hour).getTime());
    recordGatewayCall("createPixCharge", "answered", 120, ago(30 * hour).getTime());
    await flushGatewayCallMinutes();

    const webhook = await db.webhook.create({ data: { url: "https://example.com/hook", events: [] } });
    const delivery = (outcome: "APPLIED" | "FAILED", sentAt: Date, appliedAt: Date | null) => ({
      webhookId: webhook.id,
      pathId: webhook.id,
      headers: {},
      rawBody: Buffer.alloc(0),
      signatureValid: true,
      outcome,
      receivedAt: sentAt,
      timestampHeader: String(Math.floor(sentAt.getTime() / 1000)),
      appliedAt,
    });
    const sentAt = new Date(Math.floor(ago(hour).getTime() / 1000) * 1000);
    await db.webhookDelivery.createMany({
      data: [
        delivery("APPLIED", sentAt, new Date(sentAt.getTime() + 200)),
        delivery("APPLIED", sentAt, new Date(sentAt.getTime() + 400)),
        delivery("FAILED", sentAt, null),
        delivery("APPLIED", ago(48 * hour), ago(48 * hour)),
      ],
    });

    await db.cardPayment.createMany({
      data: [
        cardPayment("day-ok", ago(hour), false),
        cardPayment("day-refused", ago(hour), true),
        cardPayment("week-ok-1", ago(72 * hour), false),
        cardPayment("week-ok-2", ago(72 * hour), false),
      ],
    });

    const drift = (resourceId: string, healedAt: Date | null, detectedAt = ago(hour)) => ({
      resourceKind: "pix_charge",
      resourceId,
      fields: ["amountCents"],
      mirrorValue: { amountCents: 100 },
      gatewayValue: { amountCents: 200 },
      source: "reconcile",
      detectedAt,
      healedAt,
    });
    await db.mirrorDrift.createMany({
      data: [drift("a", ago(hour)), drift("b", null), drift("old", null, ago(48 * hour))],
    });

    const report = await readHealthReport(now);
    expect(report.gateway).toEqual([
      expect.objectContaining({ operation: "getPixCharge", calls: 10, failures: 1, errorRate: 0.1 }),
    ]);
    expect(report.gatewaySeries.reduce((sum, step) => sum + step.calls, 0)).toBe(10);
    expect(report.webhooks).toEqual([
      expect.objectContaining({
        webhookId: webhook.id,
        url: "https://example.com/hook",
        received: 3,
        applied: 2,
        failed: 1,
        refused: 0,
        lagP50Ms: 300,
      }),
    ]);
    expect(report.refusals.day).toEqual({ attempts: 2, refused: 1, rate: 0.5 });
    expect(report.refusals.week).toEqual({ attempts: 4, refused: 1, rate: 0.25 });
    expect(report.drift).toEqual({ found: 2, healed: 1, open: 2 });
    expect(report.jobs.length).toBeGreaterThan(0);
  });

  it("reads an empty database as no calls, no deliveries and no rate", async () => {
    const report = await readHealthReport(now);
    expect(report.gateway).toEqual([]);
    expect(report.webhooks).toEqual([]);
    expect(report.refusals.day.rate).toBeNull();
    expect(report.drift).toEqual({ found: 0, healed: 0, open: 0 });
  });
});
