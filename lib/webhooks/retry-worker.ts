import "server-only";
import { db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { applyStoredDelivery } from "./apply";
import { storedBodyOf } from "./stored-body";

// Old PENDING rows were stored by an app that stopped; rows are leased (SKIP LOCKED), and the ledger keeps it exactly once.

const pendingAfterMs = 30_000;
const leaseMs = 2 * 60_000;

export type TRetryPass = { claimed: number; outcomes: Record<string, number> };

export async function runWebhookRetryPass(
  options: { now?: Date; limit?: number; pendingAfterMs?: number } = {},
): Promise<TRetryPass> {
  const now = options.now ?? new Date();
  const pendingBefore = new Date(now.getTime() - (options.pendingAfterMs ?? pendingAfterMs));
  const claimed = await db.$queryRaw<
    { id: string; rawBody: Uint8Array; applyAttempts: number; duplicateOfId: string | null }[]
  >`
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
    RETURNING "id", "rawBody", "applyAttempts", "duplicateOfId"::text AS "duplicateOfId"`;
  const outcomes: Record<string, number> = {};
  for (const delivery of claimed) {
    const outcome = await applyStoredDelivery(
      { id: delivery.id, rawBody: await storedBodyOf(delivery), applyAttempts: delivery.applyAttempts },
      now,
    );
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  if (claimed.length > 0) log.info({ claimed: claimed.length, outcomes }, "webhook retry pass");
  return { claimed: claimed.length, outcomes };
}
