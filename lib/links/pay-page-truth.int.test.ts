import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import * as gateway from "@/lib/gateway/payment-links";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { testBackends } from "@/lib/testing/test-database";
import type { TSandbox } from "@/sandbox/test/harness";
import { getPayPageLink } from "./pay-page";
import { payLinkByCard, ZCardPaymentInput } from "./pay-page-card";
import { isRecentlyUnknownLink, payLinkLookupIpRule } from "./pay-page-lookup";
import { verifyPayPageCode } from "./pay-page-verify";
import { cancelPaymentLink, createPaymentLink, findPaymentLinks, getPaymentLinkView } from "./payment-links";
import { getOrCreateLinkPixCharge, syncLinkPixPayment } from "./pix";
import { ZCreatePaymentLinkInput, ZPaymentLinkFilters } from "./schemas";
import { isLinkSettledByPix } from "./settlement";
import { paymentLinkStatusCodes } from "./types";

// Spies count what reaches upstream; the calls still go to the sandbox.
vi.mock("@/lib/gateway/payment-links", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/gateway/payment-links")>();
  return {
    ...original,
    getPaymentLink: vi.fn(original.getPaymentLink),
    verifyPaymentLink: vi.fn(original.verifyPaymentLink),
    confirmPaymentLink: vi.fn(original.confirmPaymentLink),
  };
});

const payerAt = (ip: string) => ({ actor: null, ip, userAgent: "vitest" });
const approvedCard = ZCardPaymentInput.parse({
  cardNumber: "4111111111111111",
  holderName: "FULANO DE TAL",
  expiry: "12/30",
  securityCode: "123",
  installments: "1",
});
const calls = (fn: (...args: never[]) => unknown) => vi.mocked(fn).mock.calls.length;

describe.each(testBackends)("the hosted page holds to the truth of a link (%s)", (backend) => {
  let sandbox: TSandbox;
  let embedded: { close: () => Promise<void> } | undefined;

  async function newLink(): Promise<string> {
    const input = ZCreatePaymentLinkInput.parse({
      idempotencyKey: randomUUID(),
      payerName: "Fulano de Tal",
      payerDocument: "529.982.247-25",
      amountCents: 3_000,
      installments: 1,
      acceptedMethodCodes: [1, 2],
      expirationDays: 7,
    });
    return (await createPaymentLink(input, { actor: null })).linkPaymentUuid;
  }

  beforeAll(async () => {
    if (backend === "pglite") embedded = await useEmbeddedDefaultDatabase();
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
    await embedded?.close();
  });

  beforeEach(async () => {
    await db.rateLimitBucket.deleteMany();
    vi.mocked(gateway.getPaymentLink).mockClear();
    vi.mocked(gateway.verifyPaymentLink).mockClear();
    vi.mocked(gateway.confirmPaymentLink).mockClear();
  });

  it("a link paid by Pix stays paid after a gateway read says CREATED: no card is charged, staff see the Pix charge", async () => {
    const linkPaymentUuid = await newLink();
    await getOrCreateLinkPixCharge(linkPaymentUuid, payerAt("198.51.100.40"));
    const { pixChargeTxid } = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${pixChargeTxid}/pay`, {});
    await db.pixCharge.update({ where: { txid: pixChargeTxid! }, data: { syncedAt: new Date(0) } });
    await syncLinkPixPayment({ pixChargeTxid });
    // What an authoritative read of the link writes: the gateway keeps a link paid by Pix CREATED, by design.
    await db.paymentLink.update({
      where: { linkPaymentUuid },
      data: {
        statusCode: paymentLinkStatusCodes.CREATED,
        statusDescription: "CREATED",
        paidMethodCode: null,
        paidMethodDescription: null,
        paymentReceipt: null,
        transactionId: null,
        paidAt: null,
      },
    });
    const row = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    expect(isLinkSettledByPix(row)).toBe(true);

    expect(await getPayPageLink(linkPaymentUuid)).toMatchObject({ state: "paid", paidMethod: "pix" });
    expect(await payLinkByCard(linkPaymentUuid, approvedCard, payerAt("198.51.100.40"))).toEqual({
      status: "notPayable",
    });
    expect(calls(gateway.confirmPaymentLink)).toBe(0);
    const upstream = await sandbox.request("merchant", "GET", `/api/v1/link-payment/${linkPaymentUuid}`);
    expect(upstream.body.status).toEqual({ code: 1, description: "CREATED" });
    await expect(getOrCreateLinkPixCharge(linkPaymentUuid, payerAt("198.51.100.40"))).rejects.toMatchObject({
      code: "CONFLICT",
    });

    const view = await getPaymentLinkView(linkPaymentUuid);
    expect(view).toMatchObject({
      statusCode: paymentLinkStatusCodes.PAID,
      canCancel: false,
      payment: { methodCode: 2, methodDescription: "PIX", receipt: pixChargeTxid, pixChargeTxid },
    });
    expect(view?.payment?.transactionId).toEqual(expect.any(String));
    await expect(cancelPaymentLink(linkPaymentUuid, { actor: null })).rejects.toMatchObject({
      code: "CONFLICT",
      messageKey: "links.errors.alreadyPaid",
    });
    const listed = async (filters: Record<string, string>) =>
      (await findPaymentLinks(ZPaymentLinkFilters.parse(filters))).rows.map((link) => link.linkPaymentUuid);
    expect(await listed({ status: "PAGO", method: "2" })).toContain(linkPaymentUuid);
    expect(await listed({ receipt: pixChargeTxid! })).toContain(linkPaymentUuid);
    expect(await listed({ status: "ATIVO" })).not.toContain(linkPaymentUuid);
  });

  it.each([42, 1_234_567_890])("verifies a code of any integer the gateway issues (%i)", async (code) => {
    const linkPaymentUuid = await newLink();
    const set = await sandbox.request(
      "merchant",
      "POST",
      `/sandbox/v1/payment-links/${linkPaymentUuid}/verification-code`,
      { tokenVerificacao: code },
    );
    expect(set.status).toBe(200);
    expect(await verifyPayPageCode(linkPaymentUuid, String(code + 1), "198.51.100.41")).toEqual({ status: "wrong" });
    expect(await verifyPayPageCode(linkPaymentUuid, String(code), "198.51.100.41")).toEqual({ status: "ok" });
    // The verify answer refreshed the staff's copy of the code.
    expect((await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } })).verificationCode).toBe(
      String(code),
    );
    expect(await verifyPayPageCode(linkPaymentUuid, "12a4", "198.51.100.41")).toEqual({ status: "wrong" });
    expect(calls(gateway.verifyPaymentLink)).toBe(2);
  });

  it("asks the gateway once for an unknown link id, then answers from memory", async () => {
    const unknown = randomUUID();
    expect(await getPayPageLink(unknown, { ip: "198.51.100.42" })).toBeNull();
    expect(await getPayPageLink(unknown, { ip: "198.51.100.42" })).toBeNull();
    expect(await verifyPayPageCode(unknown, "123456", "198.51.100.42")).toEqual({ status: "wrong" });
    expect(isRecentlyUnknownLink(unknown)).toBe(true);
    expect(calls(gateway.getPaymentLink)).toBe(1);
    expect(calls(gateway.verifyPaymentLink)).toBe(0);
  });

  it("limits lookups of links missing from the mirror per address; other addresses and mirrored links still load", async () => {
    const known = await newLink();
    for (let index = 0; index < payLinkLookupIpRule.limit; index += 1) {
      expect(await getPayPageLink(randomUUID(), { ip: "198.51.100.43" })).toBeNull();
    }
    expect(calls(gateway.getPaymentLink)).toBe(payLinkLookupIpRule.limit);
    await expect(getPayPageLink(randomUUID(), { ip: "198.51.100.43" })).rejects.toMatchObject({
      code: "RATE_LIMITED",
    });
    expect(calls(gateway.getPaymentLink)).toBe(payLinkLookupIpRule.limit);
    expect(await getPayPageLink(randomUUID(), { ip: "198.51.100.44" })).toBeNull();
    expect(calls(gateway.getPaymentLink)).toBe(payLinkLookupIpRule.limit + 1);
    expect(await getPayPageLink(known, { ip: "198.51.100.43" })).toMatchObject({ state: "payable" });
  });

  it("a link the gateway finds is not held against the address (links made outside the dashboard)", async () => {
    const made = Array.from({ length: payLinkLookupIpRule.limit + 1 }, () =>
      sandbox.request("merchant", "POST", "/api/v1/link-payment", {
        nomePagador: "Fulano de Tal",
        numeroInscricao: "52998224725",
        valor: 10,
      }),
    );
    for (const created of await Promise.all(made)) {
      const { linkPaymentUuid } = created.body as { linkPaymentUuid: string };
      expect(await getPayPageLink(linkPaymentUuid, { ip: "198.51.100.45" })).toMatchObject({ state: "payable" });
    }
    expect(await getPayPageLink(randomUUID(), { ip: "198.51.100.45" })).toBeNull();
  });
});
