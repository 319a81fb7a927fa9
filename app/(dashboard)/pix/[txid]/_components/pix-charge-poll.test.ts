import { describe, expect, it } from "vitest";

import type { TPixRefundView } from "@/lib/pix/types";

import { hasUnsettledRefund, pixChargePollIntervalMs, refundPollIntervalMs } from "./pix-charge-poll";

const refund = (statusCode: number): TPixRefundView => ({
  pixRefundId: `r${statusCode}`,
  refundEndToEnd: null,
  amountCents: 100,
  statusCode,
  statusDescription: "",
  statusReason: null,
  description: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  settledAt: null,
});

describe("pixChargePollIntervalMs", () => {
  it("polls at the payment pace while the charge awaits payment", () => {
    expect(pixChargePollIntervalMs({ status: "ACTIVE", refunds: [] }, 1500)).toBe(1500);
    expect(pixChargePollIntervalMs({ status: "CREATED", refunds: [] }, 30_000)).toBe(30_000);
  });

  it("polls every few seconds while a refund is created or processing", () => {
    for (const statusCode of [1, 2]) {
      const charge = { status: "PARTIALLY REFUNDED", refunds: [refund(3), refund(statusCode)] };
      expect(hasUnsettledRefund(charge)).toBe(true);
      expect(pixChargePollIntervalMs(charge, 1500)).toBe(refundPollIntervalMs);
    }
  });

  it("stops once every refund has settled or failed", () => {
    for (const statusCode of [3, 4, 99]) {
      const charge = { status: "PAID", refunds: [refund(statusCode)] };
      expect(hasUnsettledRefund(charge)).toBe(false);
      expect(pixChargePollIntervalMs(charge, 1500)).toBe(false);
    }
    expect(pixChargePollIntervalMs({ status: "EXPIRED", refunds: [] }, 1500)).toBe(false);
    expect(pixChargePollIntervalMs(undefined, 1500)).toBe(false);
  });
});
