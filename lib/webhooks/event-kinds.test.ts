import { describe, expect, it } from "vitest";
import { webhookEvents, ZRegisterWebhookRequest, ZWebhookDelivery } from "@/lib/gateway/schemas/webhook";
import { allEventKinds, eventKinds, findEventKind } from "./event-kinds";

const sorted = (names: Iterable<string>) => [...names].sort();

describe("the event-kind registry", () => {
  const registered = allEventKinds.map((kind) => kind.event);

  it("has one entry for every event name the gateway schema accepts, and none other", () => {
    expect(new Set(registered).size).toBe(registered.length);
    expect(sorted(registered)).toEqual(sorted(webhookEvents));
    expect(sorted(ZWebhookDelivery.options.map((option) => option.shape.event.value))).toEqual(sorted(registered));
    for (const event of registered)
      expect(ZRegisterWebhookRequest.safeParse({ url: "https://example.test/hooks", events: [event] }).success).toBe(
        true,
      );
  });

  it("keys each entry by its own event name and finds only those", () => {
    for (const [event, kind] of Object.entries(eventKinds)) {
      expect(kind.event).toBe(event);
      expect(findEventKind(event)).toBe(kind);
    }
    expect(findEventKind("card.paid")).toBeUndefined();
    expect(findEventKind("toString")).toBeUndefined();
  });

  it("reads the gateway's copy for every event that advances money", () => {
    for (const kind of allEventKinds) expect(kind.confirm, kind.event).toBeDefined();
  });
});
