import { randomUUID } from "node:crypto";
import { formatDateTime, now } from "./clock";
import { statement } from "./store/db";
import { type TWebhookEvent, webhooks } from "./webhooks/store";

export type { TWebhookEvent } from "./webhooks/store";

type TListener = () => void;
const listeners = new Set<TListener>();

/** The dispatcher subscribes to be woken when something is queued. */
export function onEventQueued(listener: TListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Queues one delivery per active webhook of `clientId` subscribed to `event`. Call it inside the
 * transaction that changes the resource: the event exists exactly when the change is committed.
 * The dispatcher posts it later, never inside the request.
 */
export function enqueueEvent(clientId: string, event: TWebhookEvent, data: unknown): number {
  const at = now();
  const body = JSON.stringify({ event, occurredAt: formatDateTime(at), data });
  const targets = webhooks.list(clientId).filter((webhook) => webhook.active && webhook.events.includes(event));
  const insert = statement(
    "INSERT INTO webhook_deliveries (id, client_id, webhook_id, event, body, state, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)",
  );
  for (const webhook of targets) insert.run(randomUUID(), clientId, webhook.id, event, body, at, at);
  // Woken on the next turn of the event loop, after the caller's transaction has committed.
  if (targets.length > 0)
    setImmediate(() => {
      for (const listener of listeners) listener();
    });
  return targets.length;
}
