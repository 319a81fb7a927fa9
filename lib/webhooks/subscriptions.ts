import "server-only";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { registerWebhook } from "./admin";
import { allEventKinds } from "./event-kinds";
import type { TWebhookEvent } from "./event-names";

export const ownWebhookEvents: TWebhookEvent[] = allEventKinds.map((kind) => kind.event);

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

/** Subscribes the app's own receiver to every event once (demo and e2e servers); its URL, or null if already subscribed. */
export async function ensureOwnWebhook(context: TChangeContext): Promise<string | null> {
  if (await isReceivingEvent("pix_charge.paid")) return null;
  const { url } = await registerWebhook({ events: ownWebhookEvents }, context);
  return url;
}
