import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/api/webhooks/gateway/[webhookId]/route";
import { db } from "@/lib/db/client";
import { createPixCharge } from "@/lib/gateway/pix-charges";
import { requestPixRefund } from "@/lib/gateway/pix-refunds";
import { registerWebhook, updateWebhook } from "@/lib/gateway/webhooks";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { startRouteServer, type TRouteServer } from "@/lib/testing/route-server";
import type { TSandbox } from "@/sandbox/test/harness";
import { clearReceiverSecretCache } from "./receiver-secrets";
import { sealWebhookSecret } from "./secret-box";

const routePattern = "/api/webhooks/gateway/[webhookId]";
const wait = { timeout: 15_000, interval: 100 };

// A local webhook record registered upstream with the route server's URL, its secret sealed.
async function registerLocalWebhook(server: TRouteServer, events: string[]) {
  const id = randomUUID();
  const url = `${server.url}/api/webhooks/gateway/${id}`;
  await db.webhook.create({ data: { id, url, events } });
  const registered = await registerWebhook({ url, events: events as ["pix_charge.paid"] });
  await db.webhook.update({
    where: { id },
    data: { upstreamId: registered.id, secretCiphertext: sealWebhookSecret(registered.secret, id) },
  });
  return { id, url, events, upstreamId: registered.id };
}

async function clearTables() {
  await db.webhookDelivery.deleteMany();
  await db.webhookEffect.deleteMany();
  await db.webhook.deleteMany();
  await db.pixCharge.deleteMany();
}

// Real deliveries: the sandbox posts signed webhooks to the route handler served over node:http.
describe("webhook receiver against the sandbox", () => {
  let sandbox: TSandbox;
  let server: TRouteServer;
  // Answered 500 before reaching the app.
  let failuresLeft = 0;
  // Applied by the app, then answered 500: the answer is lost and the gateway tries again.
  let lostAnswersLeft = 0;
  let upstreamId: string | undefined;

  beforeAll(async () => {
    process.env.WEBHOOK_SECRET_KEY = randomBytes(32).toString("base64");
    clearReceiverSecretCache();
    sandbox = await startGatewaySandbox({ env: { SANDBOX_RETRY_SCALE: "0.01" } });
    server = await startRouteServer(
      routePattern,
      async (request, context: { params: Promise<{ webhookId: string }> }) => {
        const response = await POST(request, context);
        if (lostAnswersLeft === 0) return response;
        lostAnswersLeft -= 1;
        return new Response(null, { status: 500 });
      },
      {
        intercept: () => {
          if (failuresLeft === 0) return null;
          failuresLeft -= 1;
          return 500;
        },
      },
    );
  });

  afterAll(async () => {
    await server?.close();
    await sandbox?.stop();
  });

  beforeEach(async () => {
    if (upstreamId)
      await updateWebhook(upstreamId, { url: "http://127.0.0.1:9/off", events: ["pix_charge.paid"], active: false });
    await clearTables();
    failuresLeft = 0;
    lostAnswersLeft = 0;
  });

  async function register(events: string[]) {
    const webhook = await registerLocalWebhook(server, events);
    upstreamId = webhook.upstreamId;
    return webhook;
  }

  it("receives real pix_charge.paid and pix_refund.returned deliveries and updates the mirror", async () => {
    await register(["pix_charge.paid", "pix_refund.returned"]);
    const charge = await createPixCharge({ amount: 40, expiration: 600 });
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
    await vi.waitFor(
      () => db.webhookDelivery.findFirstOrThrow({ where: { event: "pix_charge.paid", outcome: "APPLIED" } }),
      wait,
    );
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: charge.txid } })).toMatchObject({
      status: "PAID",
      paidAmountCents: 4000,
    });

    const refund = await requestPixRefund({ txid: charge.txid, amount: 40 });
    await vi.waitFor(
      () => db.webhookDelivery.findFirstOrThrow({ where: { event: "pix_refund.returned", outcome: "APPLIED" } }),
      wait,
    );
    expect(await db.pixRefund.findUniqueOrThrow({ where: { pixRefundId: refund.pixRefundId } })).toMatchObject({
      statusCode: 3,
    });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: charge.txid } })).toMatchObject({
      status: "REFUNDED",
      refundedCents: 4000,
    });
  });

  it("gets the gateway's retries after failing three times and applies the event once", async () => {
    const webhook = await register(["pix_charge.paid"]);
    failuresLeft = 3;
    const charge = await createPixCharge({ amount: 12.34, expiration: 600 });
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
    const applied = await vi.waitFor(
      () => db.webhookDelivery.findFirstOrThrow({ where: { webhookId: webhook.id, outcome: "APPLIED" } }),
      { ...wait, timeout: 30_000 },
    );
    expect(failuresLeft).toBe(0);
    const attempts = (
      await sandbox.request("merchant", "GET", `/sandbox/v1/webhook-deliveries?webhookId=${upstreamId}`)
    ).body as { outcome: string }[];
    expect(attempts.filter((attempt) => attempt.outcome === "retry")).toHaveLength(3);
    expect(attempts.filter((attempt) => attempt.outcome === "delivered")).toHaveLength(1);
    expect(await db.webhookEffect.count({ where: { eventKey: `pix_charge.paid:${charge.txid}:PAID` } })).toBe(1);
    expect(applied).toMatchObject({ resourceId: charge.txid, signatureValid: true });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: charge.txid } })).toMatchObject({ status: "PAID" });
  });

  it("applies once an event sent again under a new delivery id after the app's answer was lost", async () => {
    const webhook = await register(["pix_charge.paid"]);
    lostAnswersLeft = 1;
    const charge = await createPixCharge({ amount: 7.5, expiration: 600 });
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
    const rows = await vi.waitFor(async () => {
      const stored = await db.webhookDelivery.findMany({
        where: { webhookId: webhook.id },
        orderBy: { receivedAt: "asc" },
      });
      expect(stored.map((row) => row.outcome)).toEqual(["APPLIED", "DUPLICATE"]);
      return stored;
    }, wait);
    // The sandbox's default: a new X-Webhook-Delivery per attempt; the effect key still matches.
    expect(new Set(rows.map((row) => row.deliveryId)).size).toBe(2);
    expect(rows[1]).toMatchObject({ eventKey: `pix_charge.paid:${charge.txid}:PAID`, error: null });
    expect(await db.webhookEffect.count()).toBe(1);
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: charge.txid } })).toMatchObject({ status: "PAID" });
  });
});

describe("webhook receiver against a sandbox whose clock runs 91 days ahead", () => {
  const clockOffsetMs = 91 * 24 * 60 * 60 * 1000;
  let sandbox: TSandbox;
  let server: TRouteServer;

  beforeAll(async () => {
    process.env.WEBHOOK_SECRET_KEY = randomBytes(32).toString("base64");
    clearReceiverSecretCache();
    sandbox = await startGatewaySandbox({ env: { SANDBOX_CLOCK_OFFSET_MS: String(clockOffsetMs) } });
    server = await startRouteServer(routePattern, POST);
    await clearTables();
  });

  afterAll(async () => {
    await server?.close();
    await sandbox?.stop();
  });

  it("accepts its deliveries: the offset moves resource dates, not X-Webhook-Timestamp", async () => {
    const webhook = await registerLocalWebhook(server, ["pix_charge.paid"]);
    const charge = await createPixCharge({ amount: 3, expiration: 600 });
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
    const row = await vi.waitFor(
      () => db.webhookDelivery.findFirstOrThrow({ where: { webhookId: webhook.id, outcome: { not: "PENDING" } } }),
      wait,
    );
    expect(row).toMatchObject({ outcome: "APPLIED", signatureValid: true, error: null });
    expect(Math.abs(Number(row.timestampHeader) - Date.now() / 1000)).toBeLessThan(5);
    const mirrored = await db.pixCharge.findUniqueOrThrow({ where: { txid: charge.txid } });
    expect(mirrored.status).toBe("PAID");
    expect(mirrored.paidAt!.getTime() - Date.now()).toBeGreaterThan(clockOffsetMs - 60_000);
  });
});
