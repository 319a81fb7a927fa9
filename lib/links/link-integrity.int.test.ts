import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import * as linkGateway from "@/lib/gateway/payment-links";
import { getPixChargeView } from "@/lib/pix/charges";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { upsertPaymentLinkFromGateway } from "./mirror";
import { payLinkByCard, ZCardPaymentInput } from "./pay-page-card";
import { cancelPaymentLink, createPaymentLink, getPaymentLinkView } from "./payment-links";
import {
  cardPaymentInProgressKey,
  claimLinkForCard,
  getOrCreateLinkPixCharge,
  refundCancelledLinkPixPayment,
  releaseCardClaim,
  syncLinkPixPayment,
} from "./pix";
import { ZCreatePaymentLinkInput } from "./schemas";

// Gates hold a gateway call in flight while the test does something else; the calls still reach the sandbox.
const gates = vi.hoisted(() => {
  const gate = () => {
    let open: () => void = () => undefined;
    let entered: () => void = () => undefined;
    const state = {
      isHolding: false,
      reached: Promise.resolve(),
      passage: Promise.resolve(),
      hold() {
        state.isHolding = true;
        state.reached = new Promise<void>((resolve) => {
          entered = resolve;
        });
        state.passage = new Promise<void>((resolve) => {
          open = resolve;
        });
      },
      async pass() {
        if (!state.isHolding) return;
        state.isHolding = false;
        entered();
        await state.passage;
      },
      release: () => open(),
    };
    return state;
  };
  return { confirm: gate(), createPix: gate() };
});

vi.mock("@/lib/gateway/payment-links", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/gateway/payment-links")>();
  return {
    ...original,
    confirmPaymentLink: vi.fn(async (...args: Parameters<typeof original.confirmPaymentLink>) => {
      await gates.confirm.pass();
      return original.confirmPaymentLink(...args);
    }),
  };
});

vi.mock("@/lib/pix/charges", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/pix/charges")>();
  return {
    ...original,
    createPixCharge: vi.fn(async (...args: Parameters<typeof original.createPixCharge>) => {
      const created = await original.createPixCharge(...args);
      await gates.createPix.pass();
      return created;
    }),
  };
});

const payer = { actor: null, ip: "198.51.100.7", userAgent: "vitest" };
const approvedCard = ZCardPaymentInput.parse({
  cardNumber: "4111111111111111",
  holderName: "FULANO DE TAL",
  expiry: "12/30",
  securityCode: "123",
  installments: "1",
});

describe("a payment link's card, Pix and cancel do not overlap", () => {
  let sandbox: TSandbox;
  let staff: { actor: { id: string; email: string }; ip: string; userAgent: string };

  async function newLink(): Promise<string> {
    const input = ZCreatePaymentLinkInput.parse({
      idempotencyKey: randomUUID(),
      payerName: "Fulano de Tal",
      payerDocument: "529.982.247-25",
      amountCents: 3_750,
      installments: 1,
      acceptedMethodCodes: [1, 2],
      expirationDays: 7,
    });
    return (await createPaymentLink(input, staff)).linkPaymentUuid;
  }

  const linkCharges = (linkPaymentUuid: string) =>
    db.pixCharge.findMany({ where: { userReference: `payment-link:${linkPaymentUuid}` } });

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.rateLimitBucket.deleteMany();
    const user = await db.user.upsert({
      where: { email: "staff@example.com" },
      update: {},
      create: { email: "staff@example.com", name: "Staff", passwordHash: "x" },
    });
    staff = { actor: { id: user.id, email: user.email }, ip: "203.0.113.9", userAgent: "vitest" };
  });

  it("cancelling a link cancels its open Pix charge upstream", async () => {
    const linkPaymentUuid = await newLink();
    expect((await getOrCreateLinkPixCharge(linkPaymentUuid, payer)).status).toBe("waiting");
    const { pixChargeTxid } = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });

    expect(await cancelPaymentLink(linkPaymentUuid, staff)).toMatchObject({ statusCode: 4 });
    const upstream = await getPixChargeView(pixChargeTxid!, { refresh: true });
    expect(upstream).toMatchObject({ status: "Cancelada", isPayable: false });
  });

  it("issues no Pix charge while a card payment is with the gateway, and takes no second card", async () => {
    const linkPaymentUuid = await newLink();
    gates.confirm.hold();
    const paying = payLinkByCard(linkPaymentUuid, approvedCard, payer);
    await gates.confirm.reached;

    await expect(getOrCreateLinkPixCharge(linkPaymentUuid, payer)).rejects.toMatchObject({
      code: "CONFLICT",
      messageKey: cardPaymentInProgressKey,
    });
    expect(await payLinkByCard(linkPaymentUuid, approvedCard, { ...payer, ip: "198.51.100.8" })).toEqual({
      status: "busy",
    });
    expect(vi.mocked(linkGateway.confirmPaymentLink)).toHaveBeenCalledTimes(1);

    gates.confirm.release();
    expect(await paying).toEqual({ status: "paid" });
    expect(await linkCharges(linkPaymentUuid)).toHaveLength(0);
    expect((await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } })).cardClaimUntil).toBeNull();
  });

  it("cancels a Pix charge issued while a card payment claimed the link, and frees the link after the card", async () => {
    const linkPaymentUuid = await newLink();
    gates.createPix.hold();
    const asking = getOrCreateLinkPixCharge(linkPaymentUuid, payer);
    await gates.createPix.reached;
    // The card claims the link between the Pix charge's creation upstream and its record on the link.
    const claim = await claimLinkForCard(linkPaymentUuid);
    expect(claim.status).toBe("claimed");
    gates.createPix.release();
    await expect(asking).rejects.toMatchObject({ messageKey: cardPaymentInProgressKey });

    const [issued] = await linkCharges(linkPaymentUuid);
    expect(await getPixChargeView(issued!.txid, { refresh: true })).toMatchObject({ status: "Cancelada" });

    if (claim.status === "claimed") await releaseCardClaim(linkPaymentUuid, claim.until);
    const next = await getOrCreateLinkPixCharge(linkPaymentUuid, payer);
    expect(next.status).toBe("waiting");
    expect(await linkCharges(linkPaymentUuid)).toHaveLength(2);
  });

  it("shows a Pix payment that landed on a cancelled link as to refund, and refunds it once", async () => {
    const linkPaymentUuid = await newLink();
    await getOrCreateLinkPixCharge(linkPaymentUuid, payer);
    const { pixChargeTxid } = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    // The link is cancelled upstream while its charge is open (the cancel's own close has not run), then paid.
    await upsertPaymentLinkFromGateway(await linkGateway.cancelPaymentLink(linkPaymentUuid));
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${pixChargeTxid}/pay`, {});
    await db.pixCharge.update({ where: { txid: pixChargeTxid! }, data: { syncedAt: new Date(0) } });
    await syncLinkPixPayment({ pixChargeTxid });

    const view = await getPaymentLinkView(linkPaymentUuid);
    expect(view).toMatchObject({ statusCode: 4, pixRefundDue: { txid: pixChargeTxid, amountCents: 3_750 } });

    const idempotencyKey = randomUUID();
    await expect(
      refundCancelledLinkPixPayment({ linkPaymentUuid, idempotencyKey, amountCents: 1_000 }, staff),
    ).rejects.toMatchObject({ code: "CONFLICT", messageKey: "links.errors.refundAmountChanged" });
    const first = await refundCancelledLinkPixPayment({ linkPaymentUuid, idempotencyKey, amountCents: 3_750 }, staff);
    const again = await refundCancelledLinkPixPayment({ linkPaymentUuid, idempotencyKey, amountCents: 3_750 }, staff);
    expect(again.pixRefundId).toBe(first.pixRefundId);
    expect(await db.pixRefund.count({ where: { txid: pixChargeTxid! } })).toBe(1);
    expect((await getPaymentLinkView(linkPaymentUuid))?.pixRefundDue).toBeNull();
  });
});
