import { z } from "zod";
import { webhookEvents } from "./event-names";

// Error messages are `webhooks.errors` keys; the same schemas check the forms in the browser.

// The gateway's id of a webhook (spec 2.9: a uuid); rows from upstream are keyed by it.
const ZWebhookId = z.string().trim().min(1, { error: "invalidWebhook" }).max(100, { error: "invalidWebhook" });

const ZWebhookUrl = z.url({ protocol: /^https?$/, error: "invalidUrl" }).max(500, { error: "urlTooLong" });

const ZWebhookEvents = z.array(z.enum(webhookEvents), { error: "eventsRequired" }).min(1, { error: "eventsRequired" });

export const ZRegisterWebhookInput = z.object({
  // Empty means this app's own receiver, at a path naming the new local record.
  url: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(ZWebhookUrl.optional())
    .optional(),
  events: ZWebhookEvents,
});

export const ZUpdateWebhookInput = z.object({
  webhookId: ZWebhookId,
  url: z.string({ error: "urlRequired" }).trim().min(1, { error: "urlRequired" }).pipe(ZWebhookUrl),
  events: ZWebhookEvents,
  isActive: z.boolean(),
});

export const ZWebhookIdInput = z.object({ webhookId: ZWebhookId });

// Long enough for a deploy of the new secret, short enough that a leaked old one dies soon.
export const rotationOverlapMinutes = [15, 60, 240, 1440, 4320] as const;

export const ZStartRotationInput = z.object({
  webhookId: ZWebhookId,
  overlapMinutes: z
    .number({ error: "invalidOverlap" })
    .int({ error: "invalidOverlap" })
    .min(1, { error: "invalidOverlap" })
    .max(7 * 24 * 60, { error: "invalidOverlap" }),
});

// 1 MiB, as the receiver: a body the receiver would refuse is not worth checking.
const maxBodyLength = 1024 * 1024;

export const ZSignatureCheckInput = z
  .object({
    body: z.string().max(maxBodyLength, { error: "bodyTooLong" }),
    signature: z.string().max(1000, { error: "invalidSignature" }),
    localWebhookId: z.uuid({ error: "invalidWebhook" }).optional(),
    secret: z.string().max(500, { error: "secretTooLong" }).optional(),
  })
  .refine((input) => Boolean(input.localWebhookId) !== Boolean(input.secret), {
    path: ["secret"],
    error: "secretRequired",
  });

import { WebhookDeliveryOutcome } from "@/lib/generated/prisma/enums";
import { ZCursor, ZOptionalDay, ZOptionalFilterText, ZPage } from "@/lib/list/schemas";

export const deliveryPageSize = 50;

export const webhookDeliveryOutcomes = Object.values(WebhookDeliveryOutcome);

export const ZDeliveryFilters = z.object({
  event: z.enum(webhookEvents).optional().catch(undefined),
  outcome: z.enum(WebhookDeliveryOutcome).optional().catch(undefined),
  // txid, refund id or link uuid.
  resourceId: ZOptionalFilterText(100),
  deliveryId: ZOptionalFilterText(100),
  webhookId: z.uuid().optional().catch(undefined),
  from: ZOptionalDay,
  to: ZOptionalDay,
  page: ZPage,
  cursor: ZCursor,
});
export type TDeliveryFilters = z.output<typeof ZDeliveryFilters>;

// next-intl keys cannot hold dots.
export function webhookEventKey(event: string): string {
  return event.replace(/\./g, "_");
}
