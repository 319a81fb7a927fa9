import { z } from "zod";
import { ZDateTime } from "./common";
import { ZPixCharge } from "./pix-charge";
import { ZPixRefund } from "./pix-refund";

// Section 6.1 events. Webhook reads accept any string so an event added upstream does not break them.
export const webhookEvents = ["pix_charge.paid", "pix_refund.returned", "link_payment.paid"] as const;
export type TWebhookEvent = (typeof webhookEvents)[number];

export const ZWebhook = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  createdAt: ZDateTime,
});
export type TWebhook = z.infer<typeof ZWebhook>;

// The registration answer: the only time the signing secret is shown.
export const ZRegisteredWebhook = ZWebhook.extend({ secret: z.string().min(1) });

const ZWebhookUrl = z.url({ protocol: /^https?$/ }).max(500);
const ZWebhookEvents = z.array(z.enum(webhookEvents)).min(1);

export const ZRegisterWebhookRequest = z.object({ url: ZWebhookUrl, events: ZWebhookEvents });
export type TRegisterWebhookRequest = z.input<typeof ZRegisterWebhookRequest>;

export const ZUpdateWebhookRequest = ZRegisterWebhookRequest.extend({ active: z.boolean() });
export type TUpdateWebhookRequest = z.input<typeof ZUpdateWebhookRequest>;

// The link_payment.paid payload is "not shown" in the spec: its `data` stays unknown here, for the handler to parse.
export const ZWebhookDelivery = z.discriminatedUnion("event", [
  z.object({ event: z.literal("pix_charge.paid"), occurredAt: ZDateTime, data: ZPixCharge }),
  z.object({ event: z.literal("pix_refund.returned"), occurredAt: ZDateTime, data: ZPixRefund }),
  z.object({ event: z.literal("link_payment.paid"), occurredAt: ZDateTime, data: z.unknown() }),
]);
