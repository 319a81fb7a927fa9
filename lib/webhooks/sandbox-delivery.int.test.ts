import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/webhooks/gateway/[webhookId]/route";
import { db } from "@/lib/db/client";
import { createPixCharge } from "@/lib/gateway/pix-charges";
import { requestPixRefund } from "@/lib/gateway/pix-refunds";
import { registerWebhook, updateWebhook } from "@/lib/gateway/webhooks";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { startRouteServer, type TRouteServer } from "@/lib/testing/route-server";
import type { TSandbox } from "@/sandbox/test/harness";
import { clearReceiverSecretCache } from "./receive";
import { sealWebhookSecret } from "./secret-box";

// Real deliveries: the sandbox posts signed webhooks to the route handler served over node:http.
describe("webhook receiver against the sandbox", () => {
  let sandbox: TSandbox;
  let server: TRouteServer;
  let failuresLeft = 0;
  let upstreamId: string | undefined;

  async function registerLocalWebhook(events: string[]) {
    const id = randomUUID();
    const url = `${server.url}/api/webhooks/gateway/${id}`;
    await db.webhook.create({ data: { id, url, events } });
    const registered = await registerWebhook({ url, events: events as ["pix_charge.paid"] });
    await db.webhook.update({
      where: { id },
      data: { upstreamId: registered.id, secretCiphertext: sealWebhookSecret(registered.secret, id) },
    });
    upstreamId = registered.id;
    return { id, url, events };
  }

  async function waitFor<T>(read: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (value) return value;
      if (Date.now() > deadline) throw new Error("timed out waiting");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  beforeAll(async () => {
    process.env.WEBHOOK_SECRET_KEY = randomBytes(32).toString("base64");
    clearReceiverSecretCache();
    sandbox = await startGatewaySandbox({ env: { SANDBOX_RETRY_SCALE: "0.01" } });
    server = await startRouteServer("/api/webhooks/gateway/[webhookId]", POST, {
      intercept: () => (failuresLeft > 0 ? (failuresLeft--, 500) : null),
    });
  });

  afterAll(async () => {
    await server?.close();
    await sandbox?.stop();
  });

  beforeEach(async () => {
    if (upstreamId)
      await updateWebhook(upstreamId, { url: "http://127.0.0.1:9/off", events: ["pix_charge.paid"], active: false });
    await db.webhookDelivery.deleteMany();
    await db.webhookEffect.deleteMany();
    await db.webhook.deleteMany();
    await db.pixCharge.deleteMany();
    failuresLeft = 0;
  });

  it("receives real pix_charge.paid and pix_refund.returned deliveries and updates the mirror", async () => {
    await registerLocalWebhook(["pix_charge.paid", "pix_refund.returned"]);
    const charge = await createPixCharge({ amount: 40, expiration: 600 });
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
    await waitFor(() => db.webhookDelivery.findFirst({ where: { event: "pix_charge.paid", outcome: "APPLIED" } }));
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: charge.txid } })).toMatchObject({
      status: "PAID",
      paidAmountCents: 4000,
    });

    const refund = await requestPixRefund({ txid: charge.txid, amount: 40 });
    await waitFor(() => db.webhookDelivery.findFirst({ where: { event: "pix_refund.returned", outcome: "APPLIED" } }));
    expect(await db.pixRefund.findUniqueOrThrow({ where: { pixRefundId: refund.pixRefundId } })).toMatchObject({
      statusCode: 3,
    });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: charge.txid } })).toMatchObject({
      status: "REFUNDED",
      refundedCents: 4000,
    });
  });

  it("gets the gateway's retries after failing three times and applies the event once", async () => {
    const webhook = await registerLocalWebhook(["pix_charge.paid"]);
    failuresLeft = 3;
    const charge = await createPixCharge({ amount: 12.34, expiration: 600 });
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
    const applied = await waitFor(
      () => db.webhookDelivery.findFirst({ where: { webhookId: webhook.id, outcome: "APPLIED" } }),
      30_000,
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
});
