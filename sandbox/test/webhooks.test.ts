import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCharge, createPaidCharge, expectPixError, expectValidationError, hmacHex } from "./fixtures";
import { freePort, startSandbox, startWebhookReceiver, type TSandbox } from "./harness";

const allEvents = ["pix_charge.paid", "pix_refund.returned", "link_payment.paid"];

type TAttempt = {
  deliveryId: string;
  attempt: number;
  responseStatus: number | null;
  outcome: string;
  durationMs: number;
  deliveryState: string;
};

/** The sandbox's record of a webhook's deliveries: every attempt, and deliveries queued but not yet tried. */
async function attemptsOf(sandbox: TSandbox, client: string, webhookId: string): Promise<TAttempt[]> {
  return (await sandbox.request(client, "GET", `/sandbox/v1/webhook-deliveries?webhookId=${webhookId}`)).body;
}

describe("webhook registration (spec 4.6)", () => {
  let sandbox: TSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox?.stop());

  it("registers (201, secret shown once), lists without secret, updates (200) keeping the secret", async () => {
    const created = await sandbox.request("merchant", "POST", "/api/v1/webhooks", {
      url: "https://example.test/hooks",
      events: allEvents,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: "https://example.test/hooks",
      events: allEvents,
      active: true,
      secret: expect.any(String),
    });
    expect(Number.isNaN(Date.parse(created.body.createdAt))).toBe(false);
    const list = await sandbox.request("merchant", "GET", "/api/v1/webhooks");
    expect(list.status).toBe(200);
    const { secret: _secret, ...publicView } = created.body;
    expect(list.body).toEqual([publicView]);
    const updated = await sandbox.request("merchant", "PUT", `/api/v1/webhooks/${created.body.id}`, {
      url: "http://example.test/v2",
      events: ["pix_refund.returned"],
      active: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      ...publicView,
      url: "http://example.test/v2",
      events: ["pix_refund.returned"],
      active: false,
    });
  });

  it.each([
    ["a relative URL", { url: "/hooks", events: ["pix_charge.paid"] }, "url"],
    ["a non-http scheme", { url: "ftp://example.test/hooks", events: ["pix_charge.paid"] }, "url"],
    [
      "a URL over 500 characters",
      { url: `https://example.test/${"a".repeat(480)}`, events: ["pix_charge.paid"] },
      "url",
    ],
    ["no events", { url: "https://example.test/hooks", events: [] }, "events"],
    ["an event outside the list", { url: "https://example.test/hooks", events: ["charge.created"] }, "events.0"],
    ["a missing url", { events: ["pix_charge.paid"] }, "url"],
  ])("answers 400 for %s", async (_name, body, field) => {
    expectValidationError(await sandbox.request("merchant", "POST", "/api/v1/webhooks", body), field);
  });

  it("accepts a URL of exactly 500 characters", async () => {
    const url = `https://example.test/${"a".repeat(479)}`;
    expect(url).toHaveLength(500);
    expect(
      (await sandbox.request("merchant", "POST", "/api/v1/webhooks", { url, events: ["pix_charge.paid"] })).status,
    ).toBe(201);
  });

  it("answers 400 for an update without active and 404 for an unknown id", async () => {
    const created = await sandbox.request("merchant", "POST", "/api/v1/webhooks", {
      url: "https://example.test/a",
      events: ["pix_charge.paid"],
    });
    expectValidationError(
      await sandbox.request("merchant", "PUT", `/api/v1/webhooks/${created.body.id}`, {
        url: "https://example.test/a",
        events: ["pix_charge.paid"],
      }),
      "active",
    );
    expectPixError(
      await sandbox.request("merchant", "PUT", "/api/v1/webhooks/7d0f4a5e-0000-4000-8000-000000000000", {
        url: "https://example.test/a",
        events: ["pix_charge.paid"],
        active: true,
      }),
      404,
    );
  });
});

// 91 days ahead, as sandbox/README.md suggests for closing the refund window: it moves resource
// dates, never the X-Webhook-Timestamp a receiver checks against its own clock.
const clockOffsetMs = 91 * 24 * 60 * 60 * 1000;

describe("webhook delivery (spec 6)", () => {
  let sandbox: TSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      clients: ["merchant-3"],
      env: {
        SANDBOX_RETRY_SCALE: "0.03",
        SANDBOX_REFUND_SETTLEMENT: "manual",
        SANDBOX_WEBHOOK_TIMEOUT_MS: "3000",
        SANDBOX_CLOCK_OFFSET_MS: String(clockOffsetMs),
      },
    });
  });
  afterAll(() => sandbox?.stop());

  async function register(client: string, url: string, events: string[]) {
    const response = await sandbox.request(client, "POST", "/api/v1/webhooks", { url, events });
    expect(response.status).toBe(201);
    return response.body as { id: string; secret: string };
  }

  it("posts pix_charge.paid with the 6.2 headers (real-time timestamp despite the clock offset), a valid signature and the full charge; not inside the request", async () => {
    // The receiver answers only after 2.5 s: a pay answered sooner did not wait for the delivery.
    const receiver = await startWebhookReceiver({ answerDelayMs: 2_500 });
    const webhook = await register("merchant-2", receiver.url, ["pix_charge.paid"]);
    const charge = await createCharge(sandbox, "merchant-2", { amount: 12.34 });
    const startedAt = Date.now();
    const paid = await sandbox.request("merchant-2", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    const [request] = await receiver.waitFor(1, 5_000);
    const raw = request!.rawBody;
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["x-webhook-event"]).toBe("pix_charge.paid");
    expect(request!.headers["x-webhook-delivery"]).toEqual(expect.any(String));
    expect(request!.headers["x-webhook-timestamp"]).toMatch(/^\d+$/);
    expect(Math.abs(Number(request!.headers["x-webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    expect(request!.headers["x-webhook-signature"]).toBe(hmacHex(webhook.secret, raw));
    expect(request!.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/);
    const body = JSON.parse(raw.toString("utf8"));
    expect(body.event).toBe("pix_charge.paid");
    // The body's dates are the sandbox clock's.
    expect(Date.parse(body.occurredAt) - Date.now()).toBeGreaterThan(clockOffsetMs - 60_000);
    expect(body.data).toEqual(paid.body);
    await receiver.close();
  });

  it("posts pix_refund.returned when a refund settles, only to subscribed and active webhooks", async () => {
    const client = "merchant-3";
    const subscribed = await startWebhookReceiver();
    const otherEvent = await startWebhookReceiver();
    const inactive = await startWebhookReceiver();
    const webhook = await register(client, subscribed.url, ["pix_refund.returned"]);
    const other = await register(client, otherEvent.url, ["link_payment.paid"]);
    const toDisable = await register(client, inactive.url, ["pix_refund.returned", "pix_charge.paid"]);
    await sandbox.request(client, "PUT", `/api/v1/webhooks/${toDisable.id}`, {
      url: inactive.url,
      events: ["pix_refund.returned", "pix_charge.paid"],
      active: false,
    });
    const charge = await createPaidCharge(sandbox, client, { amount: 5 });
    const refund = await sandbox.request(client, "POST", "/api/v1/pix-refunds", { txid: charge.txid, amount: 5 });
    // PROCESSING, not yet returned: nothing queued (events are queued with the change that causes them).
    expect(await attemptsOf(sandbox, client, webhook.id)).toEqual([]);
    const settled = await sandbox.request(client, "POST", `/sandbox/v1/pix-refunds/${refund.body.pixRefundId}/settle`);
    const [request] = await subscribed.waitFor(1, 3_000);
    expect(request!.headers["x-webhook-event"]).toBe("pix_refund.returned");
    expect(request!.headers["x-webhook-signature"]).toBe(hmacHex(webhook.secret, request!.rawBody));
    expect(JSON.parse(request!.rawBody.toString()).data).toEqual(settled.body);
    expect(await attemptsOf(sandbox, client, other.id)).toEqual([]);
    expect(await attemptsOf(sandbox, client, toDisable.id)).toEqual([]);
    expect(otherEvent.received).toHaveLength(0);
    expect(inactive.received).toHaveLength(0);
    await Promise.all([subscribed.close(), otherEvent.close(), inactive.close()]);
  });

  it("retries a failing receiver at the scaled 10 s / 30 s / 2 min marks, a new delivery id per attempt, valid signatures", async () => {
    const scale = 0.03;
    const receiver = await startWebhookReceiver({ failTimes: 3 });
    const webhook = await register("merchant", receiver.url, ["pix_charge.paid"]);
    await createPaidCharge(sandbox, "merchant");
    const received = await receiver.waitFor(4, 15_000);
    expect(received.map((r) => r.answeredStatus)).toEqual([500, 500, 500, 200]);
    // Spec 6.2: X-Webhook-Delivery identifies the attempt (SANDBOX_WEBHOOK_DELIVERY_ID=per-attempt, the default).
    const deliveryIds = new Set(received.map((r) => r.headers["x-webhook-delivery"]));
    expect(deliveryIds.size).toBe(4);
    for (const r of received) {
      expect(r.headers["x-webhook-signature"]).toBe(hmacHex(webhook.secret, r.rawBody));
      expect(r.rawBody.equals(received[0]!.rawBody)).toBe(true);
    }
    const gaps = received.slice(1).map((r, i) => r.receivedAt - received[i]!.receivedAt);
    [10_000, 30_000, 120_000].forEach((waitMs, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(waitMs * scale - 5);
      expect(gaps[i]).toBeLessThan(waitMs * scale + 2_000);
    });
    // The 200 is recorded as delivered: no attempt follows.
    await expect
      .poll(async () => (await attemptsOf(sandbox, "merchant", webhook.id)).at(-1)?.deliveryState)
      .toBe("delivered");
    expect(receiver.received).toHaveLength(4);
    const attempts = await attemptsOf(sandbox, "merchant", webhook.id);
    expect(attempts.map((a) => [a.attempt, a.responseStatus, a.outcome])).toEqual([
      [1, 500, "retry"],
      [2, 500, "retry"],
      [3, 500, "retry"],
      [4, 200, "delivered"],
    ]);
    expect(attempts[0]).toMatchObject({
      webhookId: webhook.id,
      event: "pix_charge.paid",
      nextAttemptAt: expect.any(String),
      error: null,
    });
    expect(attempts[3]).toMatchObject({ nextAttemptAt: null, deliveryState: "delivered" });
    await receiver.close();
  });

  it("records a connection error as a failed attempt and schedules a retry", async () => {
    const closedPort = await freePort();
    const webhook = await register("merchant", `http://127.0.0.1:${closedPort}/gone`, ["pix_charge.paid"]);
    await createPaidCharge(sandbox, "merchant");
    const attempts = await vi.waitFor(
      async () => {
        const list = await attemptsOf(sandbox, "merchant", webhook.id);
        expect(list.length).toBeGreaterThanOrEqual(2);
        return list;
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      responseStatus: null,
      outcome: "retry",
      error: expect.stringMatching(/ECONNREFUSED|connect/i),
    });
  });
});

describe("webhook delivery gives up after 5 attempts (one delivery id across them)", () => {
  let sandbox: TSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      env: {
        SANDBOX_RETRY_SCALE: "0.005",
        SANDBOX_WEBHOOK_TIMEOUT_MS: "300",
        SANDBOX_WEBHOOK_DELIVERY_ID: "per-delivery",
      },
    });
  });
  afterAll(() => sandbox?.stop());

  it("stops after 5 failed attempts (waits 50/150/600/1500 ms at this scale)", async () => {
    const receiver = await startWebhookReceiver({ failTimes: 100 });
    const webhook = (
      await sandbox.request("merchant", "POST", "/api/v1/webhooks", { url: receiver.url, events: ["pix_charge.paid"] })
    ).body;
    await createPaidCharge(sandbox, "merchant");
    await receiver.waitFor(5, 10_000);
    // The 5th failure is recorded as discarded: no attempt follows.
    await expect
      .poll(async () => (await attemptsOf(sandbox, "merchant", webhook.id)).at(-1)?.deliveryState)
      .toBe("discarded");
    expect(receiver.received).toHaveLength(5);
    // SANDBOX_WEBHOOK_DELIVERY_ID=per-delivery: every retry carries the delivery's one id.
    const ids = new Set(receiver.received.map((r) => r.headers["x-webhook-delivery"]));
    expect(ids.size).toBe(1);
    const attempts = await attemptsOf(sandbox, "merchant", webhook.id);
    expect([...ids]).toEqual([attempts[0]!.deliveryId]);
    expect(attempts.map((a) => a.outcome)).toEqual(["retry", "retry", "retry", "retry", "discarded"]);
    expect(attempts[4]).toMatchObject({ attempt: 5, nextAttemptAt: null, deliveryState: "discarded" });
    await receiver.close();
  });

  it("treats a receiver slower than SANDBOX_WEBHOOK_TIMEOUT_MS as a failure", async () => {
    const http = await import("node:http");
    const slow = http.createServer((_req, res) => setTimeout(() => res.writeHead(200).end(), 5_000));
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    const { port } = slow.address() as { port: number };
    const webhook = (
      await sandbox.request("merchant-2", "POST", "/api/v1/webhooks", {
        url: `http://127.0.0.1:${port}/slow`,
        events: ["pix_charge.paid"],
      })
    ).body;
    await createPaidCharge(sandbox, "merchant-2");
    const attempts = await vi.waitFor(
      async () => {
        const list = await attemptsOf(sandbox, "merchant-2", webhook.id);
        expect(list[0]?.attempt).toBe(1);
        return list;
      },
      { timeout: 5_000, interval: 100 },
    );
    expect(attempts[0]).toMatchObject({
      responseStatus: null,
      outcome: "retry",
      error: expect.stringMatching(/timeout|abort/i),
    });
    expect(attempts[0]!.durationMs).toBeLessThan(3_000);
    slow.closeAllConnections();
    slow.close();
  });
});
