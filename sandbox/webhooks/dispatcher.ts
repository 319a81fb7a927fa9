import { createHmac, randomUUID } from "node:crypto";
import { request } from "undici";
import { now } from "../clock";
import { config } from "../config";
import { onEventQueued } from "../events";
import { statement, transaction } from "../store/db";
import { webhooks } from "./store";

// Spec 6.4: waits after the 1st..4th failure; the 5th failure discards the delivery.
const retryWaitsMs = [10_000, 30_000, 120_000, 300_000] as const;

const maxConcurrent = 16;
const idleWakeMs = 1_000;

type TDueDelivery = {
  id: string;
  client_id: string;
  webhook_id: string;
  event: string;
  body: string;
  attempts: number;
};

function signBody(secret: string, rawBody: string | Buffer): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

/**
 * Polls the deliveries table (durable: a pending delivery survives a restart and is sent by the next
 * process) and posts each due delivery with the 6.2 headers. Sleeps until the next due time, and is
 * woken early when an event is queued.
 */
export function startDispatcher(): { stop(): Promise<void> } {
  const inFlight = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, Math.max(0, Math.min(delayMs, idleWakeMs)));
  };

  function tick(): void {
    if (stopped) return;
    const due = statement(
      "SELECT id, client_id, webhook_id, event, body, attempts FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?",
    ).all(now(), maxConcurrent * 2) as TDueDelivery[];
    for (const delivery of due) {
      if (inFlight.has(delivery.id) || inFlight.size >= maxConcurrent) continue;
      const job = attempt(delivery).finally(() => {
        inFlight.delete(delivery.id);
        schedule(0);
      });
      inFlight.set(delivery.id, job);
    }
    const next = statement(
      "SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at > ?",
    ).get(now()) as {
      at: number | null;
    };
    schedule(next.at === null ? idleWakeMs : next.at - now());
  }

  const unsubscribe = onEventQueued(() => schedule(0));
  schedule(0);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
      await Promise.allSettled(inFlight.values());
    },
  };
}

async function attempt(delivery: TDueDelivery): Promise<void> {
  const webhook = webhooks.get(delivery.client_id, delivery.webhook_id);
  const attemptNumber = delivery.attempts + 1;
  const startedAt = now();
  let responseStatus: number | null = null;
  let error: string | null = null;
  if (!webhook?.active) {
    error = "webhook inactive";
  } else {
    try {
      const response = await request(webhook.url, {
        method: "POST",
        body: delivery.body,
        headers: {
          "content-type": "application/json",
          "x-webhook-event": delivery.event,
          // Spec 6.2: "unique identifier of this delivery attempt"; per-delivery keeps one id across retries.
          "x-webhook-delivery": config().webhookDeliveryId === "per-delivery" ? delivery.id : randomUUID(),
          // Real time, not the sandbox clock: SANDBOX_CLOCK_OFFSET_MS moves resource dates only, and a
          // receiver checks this header against its own clock.
          "x-webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "x-webhook-signature": signBody(webhook.secret, delivery.body),
        },
        signal: AbortSignal.timeout(config().webhookTimeoutMs),
      });
      responseStatus = response.statusCode;
      await response.body.dump();
    } catch (cause) {
      error = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    }
  }
  recordAttempt(delivery, attemptNumber, startedAt, webhook?.url ?? "", responseStatus, error, !webhook?.active);
}

function recordAttempt(
  delivery: TDueDelivery,
  attemptNumber: number,
  startedAt: number,
  url: string,
  responseStatus: number | null,
  error: string | null,
  isWebhookGone: boolean,
): void {
  const isSuccess = error === null && responseStatus !== null && responseStatus >= 200 && responseStatus < 300;
  const waitMs = retryWaitsMs[attemptNumber - 1];
  // An inactive (or vanished) webhook is not retried: it asked to receive nothing.
  const outcome = isSuccess ? "delivered" : waitMs === undefined || isWebhookGone ? "discarded" : "retry";
  const finishedAt = now();
  const nextAttemptAt = outcome === "retry" ? finishedAt + Math.round(waitMs! * config().retryScale) : null;
  transaction(() => {
    statement(
      "INSERT INTO webhook_attempts (delivery_id, client_id, attempt, attempted_at, url, response_status, error, duration_ms, outcome, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(
      delivery.id,
      delivery.client_id,
      attemptNumber,
      startedAt,
      url,
      responseStatus,
      error,
      finishedAt - startedAt,
      outcome,
      nextAttemptAt,
    );
    statement("UPDATE webhook_deliveries SET attempts = ?, state = ?, next_attempt_at = ? WHERE id = ?").run(
      attemptNumber,
      outcome === "retry" ? "pending" : outcome,
      nextAttemptAt,
      delivery.id,
    );
  });
}
