import { randomBytes, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/webhooks/gateway/[webhookId]/route";
import { permissionsOfRole } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { confirmPaymentLink, createPaymentLink, getPaymentLink } from "@/lib/gateway/payment-links";
import { createPixCharge, getPixCharge } from "@/lib/gateway/pix-charges";
import { requestPixRefund } from "@/lib/gateway/pix-refunds";
import { upsertPaymentLinkFromGateway } from "@/lib/links/mirror";
import { upsertPixChargeFromGateway } from "@/lib/pix/mirror";
import { useGateway } from "@/lib/testing/gateway-sandbox";
import { clearReceiverSecretCache, webhookStateMaxAgeMs } from "./receiver-secrets";
import { replayDelivery } from "./replay";
import { runWebhookRetryPass } from "./retry-worker";
import { paidChargeEvent, paymentLinkEvent, refundReturnedEvent, signedHeaders } from "./testing/fixtures";
import { postSignedDelivery, storeReceiverWebhook, useReceiverSandbox } from "./testing/receiver-harness";

const secret = `whsec_${randomBytes(24).toString("hex")}`;
const rotatedSecret = `whsec_${randomBytes(24).toString("hex")}`;

type TDeliverOptions = {
  webhookId?: string;
  secret?: string;
  headers?: Record<string, string | undefined>;
  rawBody?: Buffer;
};

describe("webhook receiver (hand-built requests)", () => {
  let webhookId: string;
  let rotatedWebhookId: string;

  async function deliver(payload: unknown, options: TDeliverOptions = {}) {
    const { response, deliveryId } = await postSignedDelivery({
      ...options,
      webhookId: options.webhookId ?? webhookId,
      secret: options.secret ?? secret,
      payload,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, deliveryId };
  }

  const lastDelivery = () => db.webhookDelivery.findFirstOrThrow({ orderBy: { receivedAt: "desc" } });

  // The mirror holds the charge unpaid, as when this app created it, and the payer has paid it at the gateway: a paid
  // event applies the gateway's copy (25.90, like the fixture's payload).
  async function mirroredOpenCharge(): Promise<string> {
    const charge = await createPixCharge({ amount: 25.9, expiration: 600 });
    await upsertPixChargeFromGateway(charge);
    await sandbox().request("merchant", "POST", `/sandbox/v1/pix-charges/${charge.txid}/pay`);
    return charge.txid;
  }

  const sandbox = useReceiverSandbox();

  beforeEach(async () => {
    await db.webhookDelivery.deleteMany();
    await db.webhookEffect.deleteMany();
    await db.webhook.deleteMany();
    await db.pixCharge.deleteMany();
    await db.paymentLink.deleteMany();
    await db.rateLimitBucket.deleteMany({
      where: { OR: [{ key: { startsWith: "webhook-refusal:" } }, { key: { startsWith: "webhook-repeat:" } }] },
    });
    webhookId = await storeReceiverWebhook(secret);
    rotatedWebhookId = await storeReceiverWebhook(rotatedSecret, { replacesId: webhookId });
  });

  it("applies a valid pix_charge.paid and records what changed", async () => {
    const txid = await mirroredOpenCharge();
    const result = await deliver(paidChargeEvent(txid));
    expect(result).toMatchObject({ status: 200, body: { received: true, outcome: "APPLIED" } });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({
      status: "PAID",
      paidAmountCents: 2590,
    });
    const row = await lastDelivery();
    expect(row).toMatchObject({
      signatureValid: true,
      outcome: "APPLIED",
      eventKey: `pix_charge.paid:${txid}:PAID`,
      resourceType: "pix_charge",
      resourceId: txid,
      applyAttempts: 1,
    });
    expect(row.changes).toEqual([
      expect.objectContaining({
        kind: "pix_charge",
        id: txid,
        outcome: "updated",
        before: expect.objectContaining({ status: "ACTIVE", paidAmountCents: null }),
        after: expect.objectContaining({ status: "PAID", paidAmountCents: 2590 }),
      }),
    ]);
    expect(await db.webhookEffect.count()).toBe(1);
  });

  it.each([
    ["a wrong signature", { headers: { "x-webhook-signature": "0".repeat(64) } }, "signature mismatch"],
    ["the signature of another secret", { secret: rotatedSecret }, "signature mismatch"],
    ["a missing signature", { headers: { "x-webhook-signature": undefined } }, "signature missing"],
    ["a signature that is not hex", { headers: { "x-webhook-signature": "z".repeat(64) } }, "signature not hex"],
    ["a signature of the wrong length", { headers: { "x-webhook-signature": "abc" } }, "signature wrong length"],
  ])("refuses %s with 401 and changes nothing but the record", async (_name, options, problem) => {
    const txid = `TX${randomUUID().replaceAll("-", "")}`;
    const result = await deliver(paidChargeEvent(txid), options as TDeliverOptions);
    expect(result).toMatchObject({ status: 401, body: { error: { code: "REJECTED_SIGNATURE", message: problem } } });
    expect(await lastDelivery()).toMatchObject({
      signatureValid: false,
      outcome: "REJECTED_SIGNATURE",
      error: problem,
    });
    expect(await db.pixCharge.count()).toBe(0);
  });

  it("refuses the signature of a different body", async () => {
    const txid = `TX${randomUUID().replaceAll("-", "")}`;
    const genuine = Buffer.from(JSON.stringify(paidChargeEvent("OTHER")));
    const forged = Buffer.from(JSON.stringify(paidChargeEvent(txid)));
    const result = await deliver(null, {
      rawBody: forged,
      headers: { "x-webhook-signature": signedHeaders(secret, genuine)["x-webhook-signature"] },
    });
    expect(result.status).toBe(401);
    expect(await db.pixCharge.count()).toBe(0);
  });

  it.each([
    ["stale", -301, "timestamp too old"],
    ["future", 301, "timestamp in the future"],
  ])("refuses a %s timestamp with 401 (signature fine, stored as STALE)", async (_name, offsetSeconds, problem) => {
    const timestamp = String(Math.floor(Date.now() / 1000) + offsetSeconds);
    const result = await deliver(paidChargeEvent("TXSTALE"), { headers: { "x-webhook-timestamp": timestamp } });
    expect(result).toMatchObject({ status: 401, body: { error: { code: "STALE", message: problem } } });
    // Refused: a summary only, without the headers or the body.
    const row = await lastDelivery();
    expect(row).toMatchObject({ signatureValid: true, outcome: "STALE", timestampHeader: null, headers: {} });
    expect(row.rawBody.length).toBe(0);
    expect(await db.pixCharge.count()).toBe(0);
  });

  it("answers missing timestamp and delivery id headers without applying", async () => {
    expect(await deliver(paidChargeEvent("TXNOTS"), { headers: { "x-webhook-timestamp": undefined } })).toMatchObject({
      status: 401,
    });
    expect(await deliver(paidChargeEvent("TXNOID"), { headers: { "x-webhook-delivery": undefined } })).toMatchObject({
      status: 400,
      body: { error: { code: "IGNORED" } },
    });
    expect(await db.pixCharge.count()).toBe(0);
  });

  it("answers 404 for a path naming no webhook, and records it", async () => {
    expect((await deliver(paidChargeEvent("TX404"), { webhookId: randomUUID() })).status).toBe(404);
    expect((await deliver(paidChargeEvent("TX404"), { webhookId: "not-a-uuid" })).status).toBe(404);
    expect(await db.webhookDelivery.count({ where: { webhookId: null, outcome: "REJECTED_SIGNATURE" } })).toBe(2);
  });

  it("stops a cached webhook at the end of its rotation overlap, and within the max age of a change elsewhere", async () => {
    const unknownEvent = { event: "card.paid", occurredAt: "2026-11-21T10:00:00Z", data: {} };
    const retireAt = new Date(Date.now() + 2000);
    await db.webhook.update({ where: { id: webhookId }, data: { retireAt } });
    clearReceiverSecretCache();
    // Verifies until retireAt from the cache (no read), then nothing, though the cached state is still fresh.
    expect((await deliver(unknownEvent)).status).toBe(200);
    await sleep(Math.max(0, retireAt.getTime() - Date.now()) + 20);
    expect(await deliver(unknownEvent)).toMatchObject({
      status: 410,
      body: { error: { message: "webhook retired (rotation overlap over)" } },
    });
    // A deactivation written by another process: seen once the cached state is older than its max age.
    const other = { webhookId: rotatedWebhookId, secret: rotatedSecret };
    expect((await deliver(unknownEvent, other)).status).toBe(200);
    await db.webhook.update({ where: { id: rotatedWebhookId }, data: { isActive: false } });
    await sleep(webhookStateMaxAgeMs + 50);
    expect(await deliver(unknownEvent, other)).toMatchObject({
      status: 410,
      body: { error: { message: "webhook deactivated" } },
    });
  });

  it("refuses a 2 MiB body with 413, declared or not", async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    expect((await deliver(null, { rawBody: big, headers: { "content-length": String(big.length) } })).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 32; i += 1) controller.enqueue(new Uint8Array(64 * 1024));
        controller.close();
      },
    });
    const response = await POST(
      new Request(`http://127.0.0.1/x`, {
        method: "POST",
        headers: signedHeaders(secret, big),
        body: stream,
        duplex: "half",
      } as RequestInit),
      { params: Promise.resolve({ webhookId }) },
    );
    expect(response.status).toBe(413);
    expect(await db.webhookDelivery.count({ where: { outcome: "IGNORED", error: { startsWith: "body over" } } })).toBe(
      2,
    );
  });

  it("takes malformed JSON and unknown events (valid signature) with 200 IGNORED", async () => {
    expect(await deliver("{not json")).toMatchObject({ status: 200, body: { outcome: "IGNORED" } });
    expect(await lastDelivery()).toMatchObject({
      outcome: "IGNORED",
      signatureValid: true,
      error: expect.stringMatching(/not a JSON delivery/),
    });
    expect(await deliver({ event: "card.paid", occurredAt: "2026-11-21T10:00:00Z", data: {} })).toMatchObject({
      status: 200,
      body: { outcome: "IGNORED" },
    });
    expect(await lastDelivery()).toMatchObject({ error: 'unknown event "card.paid"' });
  });

  it("applies the same delivery id once, and the same event under two delivery ids and two webhooks once", async () => {
    const txid = await mirroredOpenCharge();
    const first = await deliver(paidChargeEvent(txid));
    const again = await deliver(paidChargeEvent(txid), { headers: { "x-webhook-delivery": first.deliveryId } });
    const otherId = await deliver(paidChargeEvent(txid));
    const otherWebhook = await deliver(paidChargeEvent(txid), { webhookId: rotatedWebhookId, secret: rotatedSecret });
    expect([first, again, otherId, otherWebhook].map((result) => result.body.outcome)).toEqual([
      "APPLIED",
      "DUPLICATE",
      "DUPLICATE",
      "DUPLICATE",
    ]);
    expect(await db.webhookEffect.count()).toBe(1);
    expect(await db.webhookDelivery.count({ where: { outcome: "APPLIED" } })).toBe(1);
  });

  it("stores a retry or re-send of an applied event as DUPLICATE without asking the gateway again", async () => {
    const txid = await mirroredOpenCharge();
    const first = await deliver(paidChargeEvent(txid));
    expect(first.body.outcome).toBe("APPLIED");
    await useGateway("https://127.0.0.1:1", sandbox().certsDir, "merchant", { GATEWAY_GET_RETRIES: "0" });
    try {
      const again = await deliver(paidChargeEvent(txid), { headers: { "x-webhook-delivery": first.deliveryId } });
      const resent = await deliver(paidChargeEvent(txid));
      expect([again, resent].map((result) => [result.status, result.body.outcome])).toEqual([
        [200, "DUPLICATE"],
        [200, "DUPLICATE"],
      ]);
    } finally {
      await useGateway(sandbox().baseUrl, sandbox().certsDir);
    }
    const repeats = await db.webhookDelivery.findMany({
      where: { outcome: "DUPLICATE" },
      orderBy: { receivedAt: "asc" },
    });
    expect(repeats.map((row) => [row.eventKey, row.error])).toEqual([
      [`pix_charge.paid:${txid}:PAID`, "delivery id already applied"],
      [`pix_charge.paid:${txid}:PAID`, null],
    ]);
    expect(await db.webhookEffect.count()).toBe(1);
  });

  it("applies one of many concurrent deliveries of one event", async () => {
    const txid = await mirroredOpenCharge();
    const results = await Promise.all(Array.from({ length: 12 }, () => deliver(paidChargeEvent(txid))));
    expect(results.filter((result) => result.body.outcome === "APPLIED")).toHaveLength(1);
    expect(results.filter((result) => result.body.outcome === "DUPLICATE")).toHaveLength(11);
  });

  it("leaves the mirror right when a refund settles before the charge's paid event arrives", async () => {
    const created = await createPixCharge({ amount: 50, expiration: 600 });
    await sandbox().request("merchant", "POST", `/sandbox/v1/pix-charges/${created.txid}/pay`);
    const paidSnapshot = await getPixCharge(created.txid);
    const refund = await requestPixRefund({ txid: created.txid, amount: 20 });
    const settled = (await getPixCharge(created.txid)).devolutions!.find(
      (item) => item.pixRefundId === refund.pixRefundId,
    )!;

    const refundResult = await deliver({ event: "pix_refund.returned", occurredAt: settled.updatedAt, data: settled });
    expect(refundResult.body.outcome).toBe("APPLIED");
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: created.txid } })).toMatchObject({
      status: "PARTIALLY REFUNDED",
      refundedCents: 2000,
    });
    expect(await db.pixRefund.findUniqueOrThrow({ where: { pixRefundId: refund.pixRefundId } })).toMatchObject({
      statusCode: 3,
    });
    expect(
      (await deliver({ event: "pix_refund.returned", occurredAt: settled.updatedAt, data: settled })).body.outcome,
    ).toBe("DUPLICATE");

    const late = await deliver({
      event: "pix_charge.paid",
      occurredAt: paidSnapshot.calendar.creationDate,
      data: paidSnapshot,
    });
    expect(late.body.outcome).toBe("APPLIED");
    expect(await lastDelivery()).toMatchObject({ changes: [] });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: created.txid } })).toMatchObject({
      status: "PARTIALLY REFUNDED",
      refundedCents: 2000,
    });
  });

  it("marks a mirrored payment link paid from link_payment.paid, with the gateway's copy", async () => {
    const link = await createPaymentLink({ nomePagador: "Fulano de Tal", numeroInscricao: "52998224725", valor: 100 });
    const uuid = link.linkPaymentUuid;
    await upsertPaymentLinkFromGateway(link);
    const paid = await confirmPaymentLink(uuid, {
      identificacaoPagamento: randomUUID(),
      numeroParcelas: 1,
      tipoParcelamento: "3",
      bandeiraCartao: "1",
      valor: 100,
      numeroCartao: "4111111111111111",
      dataExpiracao: "12/30",
      codigoSeguranca: "123",
    });
    // The payload's receipt is not the gateway's: only the gateway's copy reaches the mirror.
    expect((await deliver(paymentLinkEvent(uuid))).body.outcome).toBe("APPLIED");
    const upstream = await getPaymentLink(uuid);
    expect(await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid: uuid } })).toMatchObject({
      statusCode: 3,
      amountCents: 10000,
      paidMethodCode: 1,
      paymentReceipt: upstream.comprovantePagamento,
      transactionId: upstream.identificadorTransacao,
    });
    expect(upstream.comprovantePagamento).not.toBe("RECEIPT-1");
    expect(paid).toBeDefined();
  });

  it("keeps a delivery whose apply failed and applies it on a later retry pass", async () => {
    const created = await createPixCharge({ amount: 30, expiration: 600 });
    await sandbox().request("merchant", "POST", `/sandbox/v1/pix-charges/${created.txid}/pay`);
    const refund = await requestPixRefund({ txid: created.txid, amount: 30 });
    const settled = (await getPixCharge(created.txid)).devolutions!.find(
      (item) => item.pixRefundId === refund.pixRefundId,
    )!;
    await useGateway("https://127.0.0.1:1", sandbox().certsDir, "merchant", { GATEWAY_GET_RETRIES: "0" });
    try {
      expect((await deliver(refundReturnedEvent(created.txid, refund.pixRefundId, settled))).body.outcome).toBe(
        "FAILED",
      );
    } finally {
      await useGateway(sandbox().baseUrl, sandbox().certsDir);
    }
    const failed = await lastDelivery();
    expect(failed).toMatchObject({ outcome: "FAILED", applyAttempts: 1, error: expect.any(String) });
    expect(failed.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());

    expect((await runWebhookRetryPass()).claimed).toBe(0);
    const pass = await runWebhookRetryPass({ now: new Date(failed.nextAttemptAt!.getTime() + 1000) });
    expect(pass).toEqual({ claimed: 1, outcomes: { APPLIED: 1 } });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: created.txid } })).toMatchObject({
      status: "REFUNDED",
    });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({
      outcome: "APPLIED",
      applyAttempts: 2,
    });
  });

  it("applies after a restart a delivery stored but not yet applied (crash between store and apply)", async () => {
    const txid = await mirroredOpenCharge();
    const rawBody = Buffer.from(JSON.stringify(paidChargeEvent(txid)));
    const stored = await db.webhookDelivery.create({
      data: {
        webhookId,
        pathId: webhookId,
        deliveryId: randomUUID(),
        event: "pix_charge.paid",
        headers: signedHeaders(secret, rawBody),
        rawBody,
        signatureValid: true,
        outcome: "PENDING",
        receivedAt: new Date(Date.now() - 60_000),
      },
    });
    expect(await runWebhookRetryPass()).toEqual({ claimed: 1, outcomes: { APPLIED: 1 } });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({ status: "PAID" });
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: stored.id } })).toMatchObject({
      outcome: "APPLIED",
    });
  });

  it("replays a stored delivery by hand, once, and audits it", async () => {
    const admin = await db.user.upsert({
      where: { email: "admin@example.com" },
      update: {},
      create: { email: "admin@example.com", name: "Admin", passwordHash: "x", roleId: "administrator" },
    });
    const actor = { id: admin.id, email: admin.email, permissions: permissionsOfRole("administrator", null) };
    const txid = await mirroredOpenCharge();
    await deliver(paidChargeEvent(txid));
    const original = await lastDelivery();
    const replay = await replayDelivery(original.id, actor);
    expect(replay.outcome).toBe("DUPLICATE");
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: replay.id } })).toMatchObject({
      replayOfId: original.id,
    });
    expect(await db.auditLog.count({ where: { action: "webhook_delivery.replayed", resourceId: original.id } })).toBe(
      1,
    );
    await expect(
      replayDelivery(original.id, { ...actor, permissions: permissionsOfRole("operations", null) }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
