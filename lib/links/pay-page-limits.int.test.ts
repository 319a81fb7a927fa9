import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import * as gateway from "@/lib/gateway/payment-links";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { cardRefusalSpikeRule, countCardRefusal } from "./card-attempts";
import { createPayAccessToken, isPayAccessTokenFor } from "./pay-access";
import { getPayPageLink } from "./pay-page";
import { payLinkByCard, payLinkByCardOnce, ZCardPaymentInput } from "./pay-page-card";
import { verifyPayPageCode } from "./pay-page-verify";
import { createPaymentLink, getPaymentLinkView } from "./payment-links";
import { ZCreatePaymentLinkInput } from "./schemas";

// A spy on the gateway client counts what reaches upstream; the calls still go to the sandbox.
vi.mock("@/lib/gateway/payment-links", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/gateway/payment-links")>();
  return { ...original, confirmPaymentLink: vi.fn(original.confirmPaymentLink) };
});

const refusedCards = ["4000000000000002", "4000000000009995", "4000000000000069"];
const approvedCard = "4111111111111111";

const card = (cardNumber: string) =>
  ZCardPaymentInput.parse({
    cardNumber,
    holderName: "FULANO DE TAL",
    expiry: "12/30",
    securityCode: "123",
    installments: "1",
  });

const payerAt = (ip: string) => ({ actor: null, ip, userAgent: "vitest" });

describe("card attempt limits on the hosted page", () => {
  let sandbox: TSandbox;
  const confirmCalls = () => vi.mocked(gateway.confirmPaymentLink).mock.calls.length;

  async function newLink(): Promise<string> {
    const input = ZCreatePaymentLinkInput.parse({
      idempotencyKey: randomUUID(),
      payerName: "Fulano de Tal",
      payerDocument: "529.982.247-25",
      amountCents: 2_500,
      installments: 1,
      acceptedMethodCodes: [1, 2],
      expirationDays: 7,
    });
    return (await createPaymentLink(input, { actor: null })).linkPaymentUuid;
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
    vi.mocked(gateway.confirmPaymentLink).mockClear();
  });

  it("locks a link's card form after 3 refusals: the 4th card is not sent upstream, and staff see why", async () => {
    const linkPaymentUuid = await newLink();
    // Each refusal reads the same, whatever the reason: a card tester learns nothing of which card is live.
    for (const [index, number] of refusedCards.entries()) {
      expect(await payLinkByCard(linkPaymentUuid, card(number), payerAt(`198.51.100.${20 + index}`))).toEqual({
        status: "refused",
        messageKey: "declined",
      });
    }
    expect(confirmCalls()).toBe(3);

    const fourth = await payLinkByCard(linkPaymentUuid, card(approvedCard), payerAt("198.51.100.30"));
    expect(fourth).toEqual({ status: "locked", lockedUntil: expect.any(String) });
    expect(confirmCalls()).toBe(3);
    const lockedUntil = new Date(fourth.status === "locked" ? fourth.lockedUntil : 0).getTime();
    expect(lockedUntil).toBeGreaterThan(Date.now() + 59 * 60_000);

    expect((await getPayPageLink(linkPaymentUuid))?.cardLockedUntil).toBe(new Date(lockedUntil).toISOString());
    expect((await getPaymentLinkView(linkPaymentUuid))?.cardLock).toEqual({
      lockedUntil: new Date(lockedUntil).toISOString(),
      refusedAttempts: 3,
    });
    expect(await db.auditLog.count({ where: { action: "payment_link.payment_refused" } })).toBe(3);
    // Refusals feed the global alarm's counter.
    expect((await db.rateLimitBucket.findUnique({ where: { key: "pay-card:refusals" } }))?.count).toBe(3);
  });

  it("limits refused cards per address across links, and gives back attempts that were not refusals", async () => {
    const links = await Promise.all(Array.from({ length: 5 }, () => newLink()));
    const ip = "198.51.100.40";
    for (const linkPaymentUuid of links.slice(0, 4)) {
      for (const number of refusedCards.slice(0, 2)) await payLinkByCard(linkPaymentUuid, card(number), payerAt(ip));
    }
    // A payment upstream answers 409 to (the link was paid) is not counted against the address.
    const paid = links[4]!;
    expect(await payLinkByCard(paid, card(approvedCard), payerAt("198.51.100.41"))).toEqual({ status: "paid" });
    await db.paymentLink.update({ where: { linkPaymentUuid: paid }, data: { statusCode: 1 } });
    expect(await payLinkByCard(paid, card(approvedCard), payerAt(ip))).toEqual({ status: "notPayable" });

    const other = await newLink();
    for (const number of refusedCards.slice(0, 2))
      expect((await payLinkByCard(other, card(number), payerAt(ip))).status).toBe("refused");
    expect(confirmCalls()).toBe(12);
    expect((await payLinkByCard(other, card(approvedCard), payerAt(ip))).status).toBe("locked");
    expect(confirmCalls()).toBe(12);
    // The address's lock is not the link's: another payer can still pay it.
    expect(await payLinkByCard(other, card(approvedCard), payerAt("198.51.100.42"))).toEqual({ status: "paid" });
  });

  it("writes one audit alarm when refusals across all links spike within the window", async () => {
    for (let refusal = 0; refusal < cardRefusalSpikeRule.limit; refusal++) await countCardRefusal();
    expect(await db.auditLog.count({ where: { action: "security.card_refusal_spike" } })).toBe(0);
    await Promise.all(Array.from({ length: 10 }, () => countCardRefusal()));
    const alarms = await db.auditLog.findMany({ where: { action: "security.card_refusal_spike" } });
    expect(alarms).toHaveLength(1);
    expect(alarms[0]!.metadata).toMatchObject({ refusals: cardRefusalSpikeRule.limit + 1, windowMinutes: 10 });
  });

  it("makes each window of wrong codes longer, then locks verification for good; a verified payer still pays", async () => {
    const linkPaymentUuid = await newLink();
    const { verificationCode } = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    const wrong = verificationCode === "111111" ? "222222" : "111111";
    expect(await verifyPayPageCode(linkPaymentUuid, verificationCode, "198.51.100.50")).toEqual({ status: "ok" });
    const token = await createPayAccessToken(linkPaymentUuid);

    const windowKey = `pay-verify:link:${linkPaymentUuid}`;
    const windowsMs = [15 * 60_000, 60 * 60_000, 4 * 60 * 60_000, 24 * 60 * 60_000];
    for (const [window, windowMs] of windowsMs.entries()) {
      const ip = `198.51.100.${60 + window}`;
      for (let attempt = 0; attempt < 5; attempt++)
        expect(await verifyPayPageCode(linkPaymentUuid, wrong, ip)).toEqual({ status: "wrong" });
      const bucket = await db.rateLimitBucket.findUniqueOrThrow({ where: { key: windowKey } });
      expect(bucket.expiresAt.getTime() - bucket.windowStart.getTime()).toBe(windowMs);
      const next = await verifyPayPageCode(linkPaymentUuid, verificationCode, ip);
      if (window < windowsMs.length - 1) {
        expect(next.status).toBe("limited");
        expect(next.status === "limited" && next.retryAfterMs).toBeGreaterThan(windowMs - 60_000);
      } else {
        // 20 wrong codes: even the right one is refused until staff replace the link.
        expect(next).toEqual({ status: "locked" });
      }
      // The window runs out.
      await db.rateLimitBucket.update({ where: { key: windowKey }, data: { expiresAt: new Date(0) } });
    }
    expect(await verifyPayPageCode(linkPaymentUuid, verificationCode, "198.51.100.70")).toEqual({ status: "locked" });
    expect((await getPaymentLinkView(linkPaymentUuid))?.verificationLock).toEqual({ wrongCodes: 20 });

    expect(await isPayAccessTokenFor(token, linkPaymentUuid)).toBe(true);
    expect(await payLinkByCard(linkPaymentUuid, card(approvedCard), payerAt("198.51.100.71"))).toEqual({
      status: "paid",
    });
  });

  it("counts the cap before upstream: parallel guesses cannot pass 20 wrong codes", async () => {
    const linkPaymentUuid = await newLink();
    const { verificationCode } = await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } });
    const wrong = verificationCode === "111111" ? "222222" : "111111";
    // Three windows used up already; the fourth (24 h) is open to 5 tries.
    await db.rateLimitBucket.create({
      data: {
        key: `pay-verify:wrong:${linkPaymentUuid}`,
        windowStart: new Date(),
        count: 18,
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, (_, index) => verifyPayPageCode(linkPaymentUuid, wrong, `198.51.100.${80 + index}`)),
    );
    expect(outcomes.filter((outcome) => outcome.status === "wrong")).toHaveLength(2);
    expect(outcomes.filter((outcome) => outcome.status === "locked")).toHaveLength(3);
  });

  it("pays once for one form sent twice: the repeat waits for the first and gets its outcome", async () => {
    const linkPaymentUuid = await newLink();
    const formKey = randomUUID();
    const [first, second] = await Promise.all([
      payLinkByCardOnce(linkPaymentUuid, formKey, card(approvedCard), payerAt("198.51.100.90")),
      payLinkByCardOnce(linkPaymentUuid, formKey, card(approvedCard), payerAt("198.51.100.90")),
    ]);
    expect([first, second]).toEqual([{ status: "paid" }, { status: "paid" }]);
    expect(confirmCalls()).toBe(1);
    // A refused form's key answers the refusal again; the next form (a new key) is another attempt.
    const refusedLink = await newLink();
    const refusedKey = randomUUID();
    const refused = await payLinkByCardOnce(refusedLink, refusedKey, card(refusedCards[0]!), payerAt("198.51.100.91"));
    expect(refused.status).toBe("refused");
    expect(await payLinkByCardOnce(refusedLink, refusedKey, card(approvedCard), payerAt("198.51.100.91"))).toEqual(
      refused,
    );
    expect(confirmCalls()).toBe(2);
    expect(await payLinkByCardOnce(refusedLink, randomUUID(), card(approvedCard), payerAt("198.51.100.91"))).toEqual({
      status: "paid",
    });
    expect(confirmCalls()).toBe(3);
    // Only the outcome is kept under the key.
    const row = await db.idempotencyKey.findUniqueOrThrow({
      where: { scope_key: { scope: "pay_page_card", key: `${refusedLink}:${refusedKey}` } },
    });
    expect(JSON.stringify(row)).not.toContain(refusedCards[0]);
  });
});
