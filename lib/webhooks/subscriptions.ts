import "server-only";
import { db } from "@/lib/db/client";
import type { TWebhookEvent } from "./event-names";

// Pages that wait for a payment poll quickly when nothing will push, and slowly as a fallback when something will.
export async function isReceivingEvent(event: TWebhookEvent): Promise<boolean> {
  const webhook = await db.webhook.findFirst({
    where: {
      isActive: true,
      retiredAt: null,
      upstreamId: { not: null },
      secretCiphertext: { not: null },
      events: { has: event },
    },
    select: { id: true },
  });
  return webhook !== null;
}
