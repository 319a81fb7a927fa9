import { describe, expect, it } from "vitest";
import { parseDeliveryBody } from "./event-identity";
import { maxApplyAttempts, nextApplyAttemptAt } from "./retry-schedule";
import { paidChargeEvent, paymentLinkEvent, refundReturnedEvent } from "./testing/fixtures";

const bytes = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value));

describe("parseDeliveryBody", () => {
  it("names each event's effect by event, resource id and reported state", () => {
    expect(parseDeliveryBody(bytes(paidChargeEvent("TX1")))).toMatchObject({
      isUsable: true,
      identity: { eventKey: "pix_charge.paid:TX1:PAID", resourceType: "pix_charge", resourceId: "TX1" },
    });
    expect(parseDeliveryBody(bytes(refundReturnedEvent("TX1", "R1")))).toMatchObject({
      identity: { eventKey: "pix_refund.returned:R1:3", resourceType: "pix_refund", resourceId: "R1" },
    });
    expect(parseDeliveryBody(bytes(paymentLinkEvent("L1")))).toMatchObject({
      identity: { eventKey: "link_payment.paid:L1:3", resourceType: "payment_link", resourceId: "L1" },
    });
  });

  it("says why a body cannot be used", () => {
    expect(parseDeliveryBody(bytes("{not json"))).toMatchObject({
      isUsable: false,
      reason: expect.stringMatching(/not a JSON delivery/),
    });
    expect(
      parseDeliveryBody(bytes({ event: "card.paid", occurredAt: "2026-11-21T10:00:00Z", data: {} })),
    ).toMatchObject({
      isUsable: false,
      event: "card.paid",
      reason: 'unknown event "card.paid"',
    });
    expect(
      parseDeliveryBody(bytes({ event: "pix_charge.paid", occurredAt: "2026-11-21T10:00:00Z", data: { txid: 1 } })),
    ).toMatchObject({
      isUsable: false,
      reason: expect.stringMatching(/shape of a pix_charge.paid/),
    });
  });
});

describe("nextApplyAttemptAt", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  it("backs off, then gives up", () => {
    expect(nextApplyAttemptAt(1, now)?.getTime()).toBe(now.getTime() + 5_000);
    expect(nextApplyAttemptAt(3, now)?.getTime()).toBe(now.getTime() + 120_000);
    expect(nextApplyAttemptAt(20, now)?.getTime()).toBe(now.getTime() + 3_600_000);
    expect(nextApplyAttemptAt(maxApplyAttempts, now)).toBeNull();
  });
});
