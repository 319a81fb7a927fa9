import "server-only";
import { db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { retireDueWebhooks } from "./admin";
import { applyStoredDelivery } from "./apply";

// Applies again what the receiver stored but could not apply: FAILED deliveries whose
// `nextAttemptAt` has come, and PENDING ones older than `pendingAfterMs` (the app stopped between
// storing and applying). Each pass claims its rows with a lease (`nextAttemptAt` pushed ahead,
// `FOR UPDATE SKIP LOCKED`), so several app instances never take the same row and a worker that
// dies mid-pass releases its rows when the lease ends. The effect ledger keeps it exactly once anyway.

const pendingAfterMs = 30_000;
const leaseMs = 2 * 60_000;

export type TRetryPass = { claimed: number; outcomes: Record<string, number> };

export async function runWebhookRetryPass(
  options: { now?: Date; limit?: number; pendingAfterMs?: number } = {},
): Promise<TRetryPass> {
  const now = options.now ?? new Date();
  const pendingBefore = new Date(now.getTime() - (options.pendingAfterMs ?? pendingAfterMs));
  const claimed = await db.$queryRaw<{ id: string; rawBody: Uint8Array; applyAttempts: number }[]>`
    UPDATE "WebhookDelivery" SET "nextAttemptAt" = ${new Date(now.getTime() + leaseMs)}
    WHERE "id" IN (
      SELECT "id" FROM "WebhookDelivery"
      WHERE "signatureValid" AND (
        ("outcome" = 'FAILED' AND "nextAttemptAt" <= ${now})
        OR ("outcome" = 'PENDING' AND "receivedAt" <= ${pendingBefore} AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= ${now}))
      )
      ORDER BY "receivedAt"
      LIMIT ${options.limit ?? 100}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING "id", "rawBody", "applyAttempts"`;
  const outcomes: Record<string, number> = {};
  for (const delivery of claimed) {
    const outcome = await applyStoredDelivery(delivery, now);
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  if (claimed.length > 0) log.info({ claimed: claimed.length, outcomes }, "webhook retry pass");
  return { claimed: claimed.length, outcomes };
}

const state = globalThis as typeof globalThis & { __webhookRetryWorker?: { stop: () => void } };

/** Starts the periodic pass once per process (instrumentation.ts); ticks never overlap. */
export function startWebhookRetryWorker(intervalMs = 5_000): () => void {
  if (state.__webhookRetryWorker) return state.__webhookRetryWorker.stop;
  let isRunning = false;
  const timer = setInterval(() => {
    if (isRunning) return;
    isRunning = true;
    // The same tick ends rotation overlaps that are due (lib/webhooks/admin.ts), so an old webhook is
    // retired on time even when nobody opens the webhooks page.
    Promise.all([
      runWebhookRetryPass().catch((error: unknown) => log.error({ err: error }, "webhook retry pass failed")),
      retireDueWebhooks().catch((error: unknown) => log.error({ err: error }, "retiring rotated webhooks failed")),
    ]).finally(() => (isRunning = false));
  }, intervalMs);
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    state.__webhookRetryWorker = undefined;
  };
  state.__webhookRetryWorker = { stop };
  return stop;
}
