import { randomBytes, randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createPaymentLink } from "@/lib/gateway/payment-links";
import { createPixCharge, getPixCharge } from "@/lib/gateway/pix-charges";
import { ZPixCharge } from "@/lib/gateway/schemas/pix-charge";
import { upsertPaymentLinkFromGateway } from "@/lib/links/mirror";
import { upsertPixChargeFromGateway } from "@/lib/pix/mirror";
import { useGateway } from "@/lib/testing/gateway-sandbox";
import { paidCharge, paidChargeEvent, paymentLinkEvent, refundReturnedEvent } from "./testing/fixtures";
import { postSignedDelivery, storeReceiverWebhook, useReceiverSandbox } from "./testing/receiver-harness";

// A correctly signed money event only says "look": the gateway's copy is applied, never the payload, and nothing
// when the gateway does not know the resource (docs/webhooks.md).
describe("webhook receiver: the gateway's copy, not the payload", () => {
  const secret = `whsec_${randomBytes(24).toString("hex")}`;
  let webhookId: string;

  async function deliver(payload: unknown) {
    const { response } = await postSignedDelivery({ webhookId, secret, payload });
    expect(response.status).toBe(200);
    return db.webhookDelivery.findFirstOrThrow({ orderBy: { receivedAt: "desc" } });
  }

  const sandbox = useReceiverSandbox();

  beforeEach(async () => {
    await db.webhookDelivery.deleteMany();
    await db.webhookEffect.deleteMany();
    await db.webhook.deleteMany();
    await db.pixCharge.deleteMany();
    await db.paymentLink.deleteMany();
    webhookId = await storeReceiverWebhook(secret, {
      events: ["pix_charge.paid", "pix_refund.returned", "link_payment.paid"],
    });
  });

  it("does not apply a paid event that matches the mirror while the gateway cannot be asked: FAILED, retried", async () => {
    const txid = `TX${randomUUID().replaceAll("-", "")}`;
    await upsertPixChargeFromGateway(ZPixCharge.parse(paidCharge(txid, { status: "ACTIVE", pix: null })));
    await useGateway("https://127.0.0.1:1", sandbox().certsDir, "merchant", { GATEWAY_GET_RETRIES: "0" });
    try {
      expect(await deliver(paidChargeEvent(txid))).toMatchObject({
        outcome: "FAILED",
        nextAttemptAt: expect.any(Date),
      });
    } finally {
      await useGateway(sandbox().baseUrl, sandbox().certsDir);
    }
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({
      status: "ACTIVE",
      paidAmountCents: null,
    });
    expect(await db.webhookEffect.count()).toBe(0);
  });

  it("does not mark a mirrored charge paid from a payload whose amount differs; the gateway says unpaid", async () => {
    const created = await createPixCharge({ amount: 50, expiration: 600 });
    await upsertPixChargeFromGateway(created);
    const forged = paidChargeEvent(created.txid, {
      amount: 0.01,
      pix: {
        endToEndId: `E${created.txid}`,
        amount: "0.01",
        creationDate: created.calendar.creationDate,
        payerName: "FORJADO",
        payerDocumentNumber: "52998224725",
      },
    });
    const delivery = await deliver(forged);
    expect(delivery).toMatchObject({ outcome: "IGNORED", error: expect.stringMatching(/gateway reports ACTIVE/) });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: created.txid } })).toMatchObject({
      status: "ACTIVE",
      amountCents: 5000,
      paidAt: null,
      paidAmountCents: null,
    });
    expect(await db.webhookEffect.count()).toBe(0);
  });

  it("changes nothing for a paid event about a txid neither the mirror nor the gateway knows", async () => {
    const txid = `TX${randomUUID().replaceAll("-", "")}`;
    const delivery = await deliver(paidChargeEvent(txid));
    expect(delivery).toMatchObject({
      outcome: "IGNORED",
      error: expect.stringMatching(/gateway does not know/),
      changes: null,
    });
    expect(await db.pixCharge.count()).toBe(0);
    expect(await db.webhookEffect.count()).toBe(0);
  });

  it("applies a genuine paid event for a charge created at the gateway from the gateway's copy", async () => {
    const created = await createPixCharge({ amount: 42, expiration: 600 });
    await sandbox().request("merchant", "POST", `/sandbox/v1/pix-charges/${created.txid}/pay`);
    const paid = await getPixCharge(created.txid);
    // Only the gateway's copy can put the real payer's name in the mirror.
    const delivery = await deliver({
      event: "pix_charge.paid",
      occurredAt: paid.calendar.creationDate,
      data: { ...paid, pix: { ...paid.pix, payerName: "NOT FROM THE GATEWAY" } },
    });
    expect(delivery).toMatchObject({ outcome: "APPLIED", eventKey: `pix_charge.paid:${created.txid}:PAID` });
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: created.txid } })).toMatchObject({
      status: "PAID",
      amountCents: 4200,
      paidAmountCents: 4200,
      payerName: paid.pix!.payerName,
    });
    expect(await db.webhookEffect.count()).toBe(1);
  });

  it("changes nothing for a refund event the gateway does not know", async () => {
    const created = await createPixCharge({ amount: 30, expiration: 600 });
    await sandbox().request("merchant", "POST", `/sandbox/v1/pix-charges/${created.txid}/pay`);
    await upsertPixChargeFromGateway(await getPixCharge(created.txid));
    const delivery = await deliver(refundReturnedEvent(created.txid, `RF${randomUUID().replaceAll("-", "")}`));
    expect(delivery).toMatchObject({ outcome: "IGNORED", error: expect.stringMatching(/gateway does not know/) });
    expect(await db.pixRefund.count()).toBe(0);
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid: created.txid } })).toMatchObject({
      status: "PAID",
      refundedCents: 0,
    });
  });

  it("does not mark a mirrored link paid from a payload whose amount differs; the gateway says unpaid", async () => {
    const link = await createPaymentLink({ nomePagador: "Fulano de Tal", numeroInscricao: "52998224725", valor: 100 });
    await upsertPaymentLinkFromGateway(link);
    const forged = paymentLinkEvent(link.linkPaymentUuid);
    const delivery = await deliver({ ...forged, data: { ...forged.data, valor: 1 } });
    expect(delivery).toMatchObject({ outcome: "IGNORED", error: expect.stringMatching(/gateway reports 1, not 3/) });
    expect(await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid: link.linkPaymentUuid } })).toMatchObject({
      statusCode: 1,
      amountCents: 10000,
      paymentReceipt: null,
    });
    expect(await db.webhookEffect.count()).toBe(0);
  });

  it("changes nothing for a link_payment.paid about a link the gateway does not know", async () => {
    const delivery = await deliver(paymentLinkEvent(randomUUID()));
    expect(delivery).toMatchObject({ outcome: "IGNORED", error: expect.stringMatching(/gateway does not know/) });
    expect(await db.paymentLink.count()).toBe(0);
  });
});
