import { z } from "zod";
import { WebhookDeliveryOutcome } from "@/lib/generated/prisma/enums";
import { ZOptionalDay, ZOptionalFilterText, ZPage } from "@/lib/list/schemas";
import { webhookEvents } from "./event-names";

export const deliveryPageSize = 50;

export const webhookDeliveryOutcomes = Object.values(WebhookDeliveryOutcome);

export const ZDeliveryFilters = z.object({
  event: z.enum(webhookEvents).optional().catch(undefined),
  outcome: z.enum(WebhookDeliveryOutcome).optional().catch(undefined),
  // txid, refund id or link uuid.
  resourceId: ZOptionalFilterText(100),
  deliveryId: ZOptionalFilterText(100),
  // The local webhook record (the receiver path), from the webhooks list's "deliveries" link.
  webhookId: z.uuid().optional().catch(undefined),
  from: ZOptionalDay,
  to: ZOptionalDay,
  page: ZPage,
});
export type TDeliveryFilters = z.output<typeof ZDeliveryFilters>;

// next-intl keys cannot hold dots.
export function webhookEventKey(event: string): string {
  return event.replace(/\./g, "_");
}
