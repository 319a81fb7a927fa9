import { z } from "zod";
import { webhookEvents } from "@/lib/gateway/schemas/webhook";
import { WebhookDeliveryOutcome } from "@/lib/generated/prisma/enums";

export const deliveryPageSize = 50;

export const webhookDeliveryOutcomes = Object.values(WebhookDeliveryOutcome);

// Built from URL search params: every field falls back on its own (`.catch`), so a hand-edited
// or stale link shows the history with that filter dropped instead of an error page.
const ZOptionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => value || undefined)
    .optional()
    .catch(undefined);
const ZOptionalDay = z.iso.date().optional().catch(undefined);

export const ZDeliveryFilters = z.object({
  event: z.enum(webhookEvents).optional().catch(undefined),
  outcome: z.enum(WebhookDeliveryOutcome).optional().catch(undefined),
  // txid, refund id or link uuid: the resource the delivery is about.
  resourceId: ZOptionalText(100),
  // X-Webhook-Delivery as the gateway sent it.
  deliveryId: ZOptionalText(100),
  // The local webhook record (the receiver path), from the webhooks list's "deliveries" link.
  webhookId: z.uuid().optional().catch(undefined),
  from: ZOptionalDay,
  to: ZOptionalDay,
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});
export type TDeliveryFilters = z.output<typeof ZDeliveryFilters>;

export function hasDeliveryFilters(filters: TDeliveryFilters): boolean {
  return Object.entries(filters).some(([key, value]) => key !== "page" && value !== undefined);
}

/** Message key of an event name (next-intl keys cannot hold dots). */
export function webhookEventKey(event: string): string {
  return event.replace(/\./g, "_");
}
