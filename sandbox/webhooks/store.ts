import { defineCollection, registerSchema } from "../store/db";

export const webhookEvents = ["pix_charge.paid", "pix_refund.returned", "link_payment.paid"] as const;
export type TWebhookEvent = (typeof webhookEvents)[number];

export type TStoredWebhook = {
  id: string;
  url: string;
  events: TWebhookEvent[];
  active: boolean;
  createdAt: string;
  secret: string;
};

export const webhooks = defineCollection<TStoredWebhook>("webhooks");

/** The webhook as the API shows it after registration: the secret is never shown again. */
export function toPublicWebhook({ secret: _secret, ...webhook }: TStoredWebhook): Omit<TStoredWebhook, "secret"> {
  return webhook;
}

// A delivery is one event for one webhook, with its body frozen at queue time so every retry sends
// (and signs) the same bytes. Its attempts are kept for GET /sandbox/v1/webhook-deliveries.
registerSchema(`
  CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    webhook_id TEXT NOT NULL,
    event TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'discarded')),
    next_attempt_at INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
  CREATE TABLE IF NOT EXISTS webhook_attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id),
    client_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    attempted_at INTEGER NOT NULL,
    url TEXT NOT NULL,
    response_status INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'retry', 'discarded')),
    next_attempt_at INTEGER
  );
  CREATE INDEX IF NOT EXISTS webhook_attempts_client ON webhook_attempts (client_id, id);
`);
