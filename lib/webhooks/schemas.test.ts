import { describe, expect, it } from "vitest";

import { ZRegisterWebhookInput, ZSignatureCheckInput, ZUpdateWebhookInput } from "./schemas";

function firstError(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const issue = result.error?.issues[0];
  return issue ? { path: issue.path.join("."), message: issue.message } : null;
}

describe("ZRegisterWebhookInput", () => {
  it("reads an empty URL as this app's receiver", () => {
    expect(ZRegisterWebhookInput.parse({ url: "  ", events: ["pix_charge.paid"] })).toEqual({
      url: undefined,
      events: ["pix_charge.paid"],
    });
  });

  it("answers with message keys the form can show", () => {
    expect(
      firstError(ZRegisterWebhookInput.safeParse({ url: "ftp://example.com", events: ["pix_charge.paid"] })),
    ).toEqual({ path: "url", message: "invalidUrl" });
    expect(firstError(ZRegisterWebhookInput.safeParse({ events: [] }))).toEqual({
      path: "events",
      message: "eventsRequired",
    });
    expect(
      firstError(
        ZUpdateWebhookInput.safeParse({ webhookId: "w1", url: "", events: ["pix_charge.paid"], isActive: true }),
      ),
    ).toEqual({
      path: "url",
      message: "urlRequired",
    });
  });
});

describe("ZSignatureCheckInput", () => {
  it("takes either a stored webhook or a pasted secret, not both or neither", () => {
    const base = { body: "{}", signature: "ab" };
    expect(ZSignatureCheckInput.safeParse({ ...base, secret: "s" }).success).toBe(true);
    expect(
      ZSignatureCheckInput.safeParse({ ...base, localWebhookId: "1b4e28ba-2fa1-41d2-883f-0016d3cca427" }).success,
    ).toBe(true);
    expect(firstError(ZSignatureCheckInput.safeParse(base))).toEqual({ path: "secret", message: "secretRequired" });
    expect(
      ZSignatureCheckInput.safeParse({ ...base, secret: "s", localWebhookId: "1b4e28ba-2fa1-41d2-883f-0016d3cca427" })
        .success,
    ).toBe(false);
  });
});

import { hasListFilters } from "@/lib/list/search-params";
import { webhookEventKey, ZDeliveryFilters } from "./schemas";

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
