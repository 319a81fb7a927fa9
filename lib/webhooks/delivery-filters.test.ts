import { describe, expect, it } from "vitest";

import { hasListFilters } from "@/lib/list/search-params";
import { webhookEventKey, ZDeliveryFilters } from "./delivery-filters";

describe("ZDeliveryFilters", () => {
  it("reads the filters of a shared link", () => {
    expect(
      ZDeliveryFilters.parse({
        event: "pix_charge.paid",
        outcome: "DUPLICATE",
        resourceId: " TX1 ",
        from: "2026-11-01",
        page: "3",
      }),
    ).toEqual({ event: "pix_charge.paid", outcome: "DUPLICATE", resourceId: "TX1", from: "2026-11-01", page: 3 });
  });

  it("drops each bad value on its own instead of failing the page", () => {
    const filters = ZDeliveryFilters.parse({
      event: "nope",
      outcome: "WHATEVER",
      webhookId: "x",
      to: "yesterday",
      page: "-1",
      deliveryId: "d1",
    });
    expect(filters).toEqual({ deliveryId: "d1", page: 1 });
    expect(hasListFilters(filters)).toBe(true);
    expect(hasListFilters(ZDeliveryFilters.parse({ page: "2" }))).toBe(false);
  });
});

describe("webhookEventKey", () => {
  it("makes an event name usable as a message key", () => {
    expect(webhookEventKey("pix_refund.returned")).toBe("pix_refund_returned");
  });
});
