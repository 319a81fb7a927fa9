import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { getMetricsRegistry } from "@/lib/telemetry/metrics";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { createPayAccessToken, isPayAccessTokenFor } from "./pay-access";
import { getPayPageLink } from "./pay-page";
import { payLinkByCard, ZCardPaymentInput } from "./pay-page-card";
import { verifyPayPageCode } from "./pay-page-verify";
import { createPaymentLink } from "./payment-links";
import { getOrCreateLinkPixCharge, syncLinkPixPayment } from "./pix";
import { ZCreatePaymentLinkInput } from "./schemas";

const payer = { actor: null, ip: "198.51.100.7", userAgent: "vitest" };

const card = (cardNumber: string, installments = 1) =>
  ZCardPaymentInput.parse({
    cardNumber,
    holderName: "FULANO DE TAL",
    expiry: "12/30",
    securityCode: "8312",
    installments: String(installments),
  });

async function cardPaymentCounts() {
  const metric = await getMetricsRegistry().getSingleMetric("payments_card_payments_total")?.get();
  const count = (outcome: string) => metric?.values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
  return { approved: count("approved"), refused: count("refused") };
}

describe("the hosted payment page against the sandbox", () => {
  let sandbox: TSandbox;

  async function newLink(overrides: Record<string, unknown> = {}) {
    const user = await db.user.upsert({
      where: { email: "staff@example.com" },
      update: {},
      create: { email: "staff@example.com", name: "Staff", passwordHash: "x" },
    });
    const input = ZCreatePaymentLinkInput.parse({
      idempotencyKey: randomUUID(),
      payerName: "Fulano de Tal",
      payerDocument: "529.982.247-25",
      amountCents: 10_000,
      installments: 3,
      acceptedMethodCodes: [1, 2],
      expirationDays: 7,
      ...overrides,
    });
    const { linkPaymentUuid } = await createPaymentLink(input, { actor: { id: user.id, email: user.email } });
    const { verificationCode } = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    return { linkPaymentUuid, code: verificationCode };
  }

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.rateLimitBucket.deleteMany();
    await db.auditLog.deleteMany();
  });

  it("shows the payer only what the page needs", async () => {
    const { linkPaymentUuid } = await newLink({ description: "Pedido 7" });
    const link = await getPayPageLink(linkPaymentUuid);
    expect(link).toEqual({
      linkPaymentUuid,
      state: "payable",
      merchantName: "Loja Sandbox",
      description: "Pedido 7",
      amountCents: 10_000,
      installmentChoices: [
        { installments: 1, firstCents: 10_000, otherCents: 0 },
        { installments: 2, firstCents: 5_000, otherCents: 5_000 },
        { installments: 3, firstCents: 3_334, otherCents: 3_333 },
      ],
      acceptsCard: true,
      acceptsPix: true,
      paidMethod: null,
      cardLockedUntil: null,
    });
    expect(await getPayPageLink(randomUUID())).toBeNull();
  });

  it("verifies the code upstream: a wrong code and an unknown link answer alike, and attempts are limited", async () => {
    const { linkPaymentUuid, code } = await newLink();
    const wrong = code === "111111" ? "222222" : "111111";
    expect(await verifyPayPageCode(linkPaymentUuid, wrong, "198.51.100.1")).toEqual({ status: "wrong" });
    expect(await verifyPayPageCode(randomUUID(), wrong, "198.51.100.1")).toEqual({ status: "wrong" });
    expect(await verifyPayPageCode(linkPaymentUuid, "12ab", "198.51.100.1")).toEqual({ status: "wrong" });
    expect(await verifyPayPageCode(linkPaymentUuid, code, "198.51.100.1")).toEqual({ status: "ok" });

    // The right code cleared the count: 5 more tries, then even the right code waits.
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await verifyPayPageCode(linkPaymentUuid, wrong, "198.51.100.2")).status).toBe("wrong");
    const limited = await verifyPayPageCode(linkPaymentUuid, code, "198.51.100.3");
    expect(limited.status).toBe("limited");
    expect(limited.status === "limited" && limited.retryAfterMs).toBeGreaterThan(14 * 60_000);
  });

  it("limits wrong codes per IP across links", async () => {
    // 8 links × 4 wrong codes: each link stays under its own limit, the address goes over 30.
    const links = await Promise.all(Array.from({ length: 8 }, () => newLink()));
    for (const { linkPaymentUuid, code } of links) {
      for (let attempt = 0; attempt < 4; attempt++)
        await verifyPayPageCode(linkPaymentUuid, code === "111111" ? "222222" : "111111", "198.51.100.9");
    }
    const other = await newLink();
    expect((await verifyPayPageCode(other.linkPaymentUuid, other.code, "198.51.100.9")).status).toBe("limited");
    expect((await verifyPayPageCode(other.linkPaymentUuid, other.code, "198.51.100.10")).status).toBe("ok");
  });

  it("grants one link per access token", async () => {
    const token = await createPayAccessToken("8cff44bc-21e4-4e8c-a8e9-23d48b197bd7");
    expect(await isPayAccessTokenFor(token, "8cff44bc-21e4-4e8c-a8e9-23d48b197bd7")).toBe(true);
    expect(await isPayAccessTokenFor(token, "9cff44bc-21e4-4e8c-a8e9-23d48b197bd7")).toBe(false);
    expect(await isPayAccessTokenFor(`${token.slice(0, -2)}xx`, "8cff44bc-21e4-4e8c-a8e9-23d48b197bd7")).toBe(false);
  });

  it("pays by card: a refusal the payer understands, then an approved card; audited without card data", async () => {
    const { linkPaymentUuid } = await newLink();
    const counted = await cardPaymentCounts();
    expect(await payLinkByCard(linkPaymentUuid, card("4000000000009995", 3), payer)).toEqual({
      status: "refused",
      messageKey: "declined",
    });
    expect(await payLinkByCard(linkPaymentUuid, card("4000000000000002", 3), payer)).toEqual({
      status: "refused",
      messageKey: "declined",
    });
    expect(await payLinkByCard(linkPaymentUuid, card("4111111111111111", 4), payer)).toEqual({
      status: "invalid",
      fieldErrors: { installments: "installmentsInvalid" },
    });
    expect(await payLinkByCard(linkPaymentUuid, card("4111111111111111", 3), payer)).toEqual({ status: "paid" });

    const mirrored = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    expect(mirrored).toMatchObject({ statusCode: 3, paidMethodCode: 1 });
    expect((await getPayPageLink(linkPaymentUuid))?.state).toBe("paid");
    // 409 upstream: already paid.
    expect(await payLinkByCard(linkPaymentUuid, card("5555555555554444"), payer)).toEqual({ status: "notPayable" });
    expect(await cardPaymentCounts()).toEqual({ approved: counted.approved + 1, refused: counted.refused + 2 });

    const audit = await db.auditLog.findMany({
      where: { resourceId: linkPaymentUuid, action: { not: "payment_link.created" } },
      orderBy: { occurredAt: "asc" },
    });
    expect(audit.map((entry) => entry.action)).toEqual([
      "payment_link.payment_refused",
      "payment_link.payment_refused",
      "payment_link.paid",
    ]);
    expect(audit[0]!.metadata).toMatchObject({
      method: "card",
      outcome: "refused",
      codigo: "51",
      merchantAdviceCode: "02",
      installments: 3,
    });
    const everything = JSON.stringify(audit) + JSON.stringify(mirrored);
    for (const secret of ["4000000000009995", "4111111111111111", "8312"]) expect(everything).not.toContain(secret);
  });

  it("mirrors the link's card payments, refused and paid, as origin LINK with BIN and last four only", async () => {
    const { linkPaymentUuid } = await newLink({ amountCents: 12_345 });
    expect(await payLinkByCard(linkPaymentUuid, card("4000000000000069", 2), payer)).toMatchObject({
      status: "refused",
    });
    expect(await payLinkByCard(linkPaymentUuid, card("5555555555554444", 3), payer)).toEqual({ status: "paid" });

    const { transactionId } = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    const rows = await db.cardPayment.findMany({
      where: { linkPaymentUuid },
      include: { installments: { orderBy: { number: "asc" } } },
      orderBy: { createdAt: "asc" },
    });
    expect(rows).toHaveLength(2);
    const [refused, paid] = rows;
    expect(refused).toMatchObject({
      origin: "LINK",
      isApproved: false,
      responseCode: "54",
      merchantAdviceCode: "01",
      cardBin: "400000",
      cardLastFour: "0069",
      installmentType: "4",
      installmentCount: 2,
    });
    expect(paid).toMatchObject({
      id: transactionId,
      origin: "LINK",
      status: "CON",
      isApproved: true,
      amountCents: 12_345,
      cardBin: "555555",
      cardLastFour: "4444",
      installmentType: "4",
      installmentCount: 3,
    });
    expect(paid!.installments.map((installment) => installment.amountCents)).toEqual([4_115, 4_115, 4_115]);
    const everything = JSON.stringify(rows);
    for (const secret of ["4000000000000069", "5555555555554444"]) expect(everything).not.toContain(secret);
  });

  it("Pix: one charge per link while active, and its payment marks the link paid by Pix", async () => {
    const { linkPaymentUuid } = await newLink({ amountCents: 4_250, installments: 1 });
    const first = await getOrCreateLinkPixCharge(linkPaymentUuid, payer);
    const [second, third] = await Promise.all([
      getOrCreateLinkPixCharge(linkPaymentUuid, payer),
      getOrCreateLinkPixCharge(linkPaymentUuid, payer),
    ]);
    expect(first.status).toBe("waiting");
    expect(second.pixCopyAndPaste).toBe(first.pixCopyAndPaste);
    expect(third.pixCopyAndPaste).toBe(first.pixCopyAndPaste);
    expect(await db.pixCharge.count({ where: { userReference: `payment-link:${linkPaymentUuid}` } })).toBe(1);

    const { pixChargeTxid } = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${pixChargeTxid}/pay`, {});
    // The page polls every 2 s; the mirror of an open charge is read again once a second old.
    await db.pixCharge.update({ where: { txid: pixChargeTxid! }, data: { syncedAt: new Date(0) } });
    const synced = await syncLinkPixPayment({ pixChargeTxid });
    expect(synced?.status).toBe("paid");
    const link = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    expect(link).toMatchObject({
      statusCode: 3,
      paidMethodCode: 2,
      paidMethodDescription: "PIX",
      paymentReceipt: pixChargeTxid,
    });
    expect(link.transactionId).toBeTruthy();
    expect(await getPayPageLink(linkPaymentUuid)).toMatchObject({ state: "paid", paidMethod: "pix" });
    // Upstream still has the link open; the hosted page refuses the card anyway.
    expect(await payLinkByCard(linkPaymentUuid, card("4111111111111111"), payer)).toEqual({ status: "notPayable" });
    expect(await db.auditLog.count({ where: { action: "payment_link.paid", resourceId: linkPaymentUuid } })).toBe(1);
  });

  it("a new Pix charge replaces an expired one; paying by card closes the open Pix charge first", async () => {
    const { linkPaymentUuid } = await newLink();
    await getOrCreateLinkPixCharge(linkPaymentUuid, payer);
    const { pixChargeTxid: firstTxid } = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    await sandbox.request("merchant", "POST", `/sandbox/v1/pix-charges/${firstTxid}/expire`, {});
    await db.pixCharge.update({ where: { txid: firstTxid! }, data: { syncedAt: new Date(0) } });
    await getOrCreateLinkPixCharge(linkPaymentUuid, payer);
    const { pixChargeTxid: secondTxid } = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    expect(secondTxid).not.toBe(firstTxid);

    expect(await payLinkByCard(linkPaymentUuid, card("4111111111111111"), payer)).toEqual({ status: "paid" });
    expect((await db.pixCharge.findUniqueOrThrow({ where: { txid: secondTxid! } })).status).toBe("Cancelada");
  });
});
