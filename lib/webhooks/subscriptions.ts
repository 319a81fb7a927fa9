import "server-only";
import { db } from "@/lib/db/client";
import type { TWebhookEvent } from "./event-names";

// Whether the gateway is expected to push `event` to this app: an active webhook whose secret
// the app holds (so its deliveries verify) subscribes to it. Pages that wait for a payment
// poll quickly when nothing will push, and only as a slow fallback when something will.
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
