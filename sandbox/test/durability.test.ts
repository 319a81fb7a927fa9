import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCharge, createPaidCharge, hmacHex, wholeRange } from "./fixtures";
import { freePort, startSandbox, startWebhookReceiver, type TSandbox } from "./harness";

describe("durable state", () => {
  let sandbox: TSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ env: { SANDBOX_RETRY_SCALE: "0.1" } });
  });
  afterAll(() => sandbox?.stop());

  it("keeps everything answered with a 2xx after a kill -9 right after the answer", async () => {
    const webhook = await sandbox.request("merchant", "POST", "/api/v1/webhooks", {
      url: "http://127.0.0.1:9/x",
      events: ["link_payment.paid"],
    });
    const cancelled = await createCharge(sandbox, "merchant", { userReference: "durable" });
    await sandbox.request("merchant", "PUT", `/api/v1/pix-charges/${cancelled.txid}/cancel`);
    const paid = await createPaidCharge(sandbox, "merchant", { amount: 20, userReference: "durable" });
    const refund = await sandbox.request("merchant", "POST", "/api/v1/pix-refunds", { txid: paid.txid, amount: 5 });
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        sandbox.request("merchant", "POST", "/api/v1/pix-charges", { amount: i + 1, userReference: "durable-burst" }),
      ),
    );
    expect(burst.every((r) => r.status === 201)).toBe(true);
    await sandbox.kill();
    await sandbox.restart();

    expect(
      (await sandbox.request("merchant", "GET", "/api/v1/webhooks")).body.map((w: { id: string }) => w.id),
    ).toEqual([webhook.body.id]);
    expect((await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${cancelled.txid}`)).body.status).toBe(
      "Cancelada",
    );
    const paidAfter = (await sandbox.request("merchant", "GET", `/api/v1/pix-charges/${paid.txid}`)).body;
    expect(paidAfter).toMatchObject({ status: "PARTIALLY REFUNDED", pix: paid.pix });
    expect(
      (await sandbox.request("merchant", "GET", `/api/v1/pix-refunds/${refund.body.pixRefundId}`)).body.status.code,
    ).toBe(3);
    const list = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/pix-charges?${wholeRange}&userReference=durable-burst&size=100`,
    );
    expect(list.body.content.map((c: { txid: string }) => c.txid).sort()).toEqual(burst.map((r) => r.body.txid).sort());
  });

  it("sends a delivery that was pending when the sandbox was killed, after it restarts", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hooks`;
    const webhook = (
      await sandbox.request("merchant-2", "POST", "/api/v1/webhooks", { url, events: ["pix_charge.paid"] })
    ).body;
    // Nobody listens yet: the delivery is queued (and maybe tried once) when the sandbox dies.
    const paid = await createPaidCharge(sandbox, "merchant-2");
    await sandbox.kill();
    const receiver = await startWebhookReceiver({ port });
    await sandbox.restart();
    const [request] = await receiver.waitFor(1, 10_000);
    expect(request!.headers["x-webhook-signature"]).toBe(hmacHex(webhook.secret, request!.rawBody));
    expect(JSON.parse(request!.rawBody.toString()).data).toEqual(paid);
    await receiver.close();
  });

  it("resumes a retry schedule across a graceful restart", async () => {
    const receiver = await startWebhookReceiver({ failTimes: 1 });
    const webhook = (
      await sandbox.request("merchant", "POST", "/api/v1/webhooks", { url: receiver.url, events: ["pix_charge.paid"] })
    ).body;
    await createPaidCharge(sandbox, "merchant");
    await receiver.waitFor(1, 5_000);
    await sandbox.restart();
    const received = await receiver.waitFor(2, 10_000);
    expect(received.map((r) => r.answeredStatus)).toEqual([500, 200]);
    expect(received[1]!.headers["x-webhook-signature"]).toBe(hmacHex(webhook.secret, received[1]!.rawBody));
    await receiver.close();
  });
});
