import { z } from "zod";
import { type TPaymentLink, ZPaymentLink } from "@/lib/gateway/schemas/payment-link";
import type { TPixCharge } from "@/lib/gateway/schemas/pix-charge";
import type { TPixRefund } from "@/lib/gateway/schemas/pix-refund";
import { webhookEvents, ZWebhookDelivery } from "@/lib/gateway/schemas/webhook";

// Turns a verified body into something the apply step can act on, and names the event's effect.
// The effect key is event + resource id + the state the event reports: a retry, a replay with fresh
// headers or the same event through a second webhook carries the same key; a later state (a second
// refund settling) carries another one.

export type TResourceType = "pix_charge" | "pix_refund" | "payment_link";

export type TParsedEvent =
  | { event: "pix_charge.paid"; occurredAt: string; data: TPixCharge }
  | { event: "pix_refund.returned"; occurredAt: string; data: TPixRefund }
  | { event: "link_payment.paid"; occurredAt: string; data: TPaymentLink };

export type TEventIdentity = { eventKey: string; resourceType: TResourceType; resourceId: string };

export type TParsedBody =
  | { isUsable: true; parsed: TParsedEvent; identity: TEventIdentity }
  | { isUsable: false; reason: string; event?: string };

const ZEnvelope = z.object({ event: z.string(), occurredAt: z.string(), data: z.unknown() });

function parseJson(rawBody: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(rawBody).toString("utf8"));
  } catch {
    return undefined;
  }
}

export function eventIdentity(parsed: TParsedEvent): TEventIdentity {
  switch (parsed.event) {
    case "pix_charge.paid":
      return {
        eventKey: `${parsed.event}:${parsed.data.txid}:${parsed.data.status}`,
        resourceType: "pix_charge",
        resourceId: parsed.data.txid,
      };
    case "pix_refund.returned":
      return {
        eventKey: `${parsed.event}:${parsed.data.pixRefundId}:${parsed.data.status.code}`,
        resourceType: "pix_refund",
        resourceId: parsed.data.pixRefundId,
      };
    case "link_payment.paid":
      return {
        eventKey: `${parsed.event}:${parsed.data.linkPaymentUuid}:${parsed.data.status.code}`,
        resourceType: "payment_link",
        resourceId: parsed.data.linkPaymentUuid,
      };
  }
}

function parseEvent(envelope: unknown): TParsedEvent | null {
  const delivery = ZWebhookDelivery.safeParse(envelope);
  if (!delivery.success) return null;
  if (delivery.data.event !== "link_payment.paid") return delivery.data;
  // The spec leaves this payload "not shown"; the sandbox sends the link (2.6).
  const link = ZPaymentLink.safeParse(delivery.data.data);
  return link.success ? { ...delivery.data, data: link.data } : null;
}

/** Reads a delivery body; a body that is not JSON, names an unknown event or does not match its event's shape is not usable (and says why). */
export function parseDeliveryBody(rawBody: Uint8Array): TParsedBody {
  const envelope = ZEnvelope.safeParse(parseJson(rawBody));
  if (!envelope.success)
    return { isUsable: false, reason: "the body is not a JSON delivery ({ event, occurredAt, data })" };
  const { event } = envelope.data;
  if (!(webhookEvents as readonly string[]).includes(event))
    return { isUsable: false, reason: `unknown event "${event.slice(0, 100)}"`, event };
  const parsed = parseEvent(envelope.data);
  if (!parsed) return { isUsable: false, reason: `the data does not have the shape of a ${event} event`, event };
  return { isUsable: true, parsed, identity: eventIdentity(parsed) };
}
