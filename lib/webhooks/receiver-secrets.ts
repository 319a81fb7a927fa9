import "server-only";
import { createSecretKey, type KeyObject } from "node:crypto";
import { z } from "zod";
import { isoUtc, runSql } from "@/lib/db/sql";
import { log } from "@/lib/log";
import { openWebhookSecret } from "./secret-box";

// Secrets never change (rotation makes a new record): opened keys are cached per process; unusable records are re-read.
type TReceiverWebhook = {
  id: string;
  secret: KeyObject | null;
  secretProblem?: string;
  retiredBecause?: string;
};
type TUsableWebhook = { id: string; key: KeyObject; retireAt: number | null; readAt: number };
const ZWebhookPathId = z.uuid();
export const webhookStateMaxAgeMs = 1000;
// On globalThis: a production build may hold one copy per route chunk, and the admin's forgetting must reach them all.
const receiverCache = globalThis as typeof globalThis & { __paymentsReceiverWebhooks?: Map<string, TUsableWebhook> };
receiverCache.__paymentsReceiverWebhooks ??= new Map();
const usableWebhooks = receiverCache.__paymentsReceiverWebhooks;
const rotationOverReason = "webhook retired (rotation overlap over)";

const findWebhookSql = `
SELECT "id"::text AS "id", "secretCiphertext",
  ${isoUtc('"retireAt"')} AS "retireAt",
  CASE
    WHEN "retiredAt" IS NOT NULL THEN 'webhook retired'
    WHEN NOT "isActive" THEN 'webhook deactivated'
    WHEN "retireAt" <= ($2::timestamptz AT TIME ZONE 'UTC') THEN '${rotationOverReason}'
  END AS "retiredBecause"
FROM "Webhook" WHERE "id" = $1::uuid`;

type TWebhookRow = {
  id: string;
  secretCiphertext: string | null;
  retireAt: string | null;
  retiredBecause: string | null;
};

function fromCache(pathId: string, now: Date): TReceiverWebhook | null {
  const cached = usableWebhooks.get(pathId);
  if (!cached) return null;
  if (cached.retireAt !== null && cached.retireAt <= now.getTime()) {
    usableWebhooks.delete(pathId);
    return { id: cached.id, secret: null, retiredBecause: rotationOverReason };
  }
  // performance.now(): a test's or a caller's `now` must not keep a stale entry alive.
  if (performance.now() - cached.readAt > webhookStateMaxAgeMs) return null;
  return { id: cached.id, secret: cached.key };
}

const openedKeys = new Map<string, { ciphertext: string; key: KeyObject }>();

export async function findReceiverWebhook(pathId: string, now: Date): Promise<TReceiverWebhook | null> {
  const cached = fromCache(pathId, now);
  if (cached) return cached;
  if (!ZWebhookPathId.safeParse(pathId).success) return null;
  const readAt = performance.now();
  const [row] = await runSql<TWebhookRow>(findWebhookSql, [pathId, now.toISOString()]);
  if (!row) return null;
  if (row.retiredBecause) return { id: row.id, secret: null, retiredBecause: row.retiredBecause };
  // The admin flow stores the secret right after the upstream registration answers.
  if (!row.secretCiphertext) return { id: row.id, secret: null };
  let key = openedKeys.get(row.id)?.ciphertext === row.secretCiphertext ? openedKeys.get(row.id)!.key : null;
  if (!key) {
    try {
      key = createSecretKey(Buffer.from(openWebhookSecret(row.secretCiphertext, row.id), "utf8"));
      openedKeys.set(row.id, { ciphertext: row.secretCiphertext, key });
    } catch (error) {
      // Our configuration, not the sender's fault (WEBHOOK_SECRET_KEY changed): a 503 makes the gateway retry.
      log.error({ err: error, webhookId: row.id }, "webhook receiver: the stored secret does not open");
      return { id: row.id, secret: null, secretProblem: "the stored secret cannot be opened with WEBHOOK_SECRET_KEY" };
    }
  }
  const retireAt = row.retireAt === null ? null : Date.parse(row.retireAt);
  usableWebhooks.set(row.id, { id: row.id, key, retireAt, readAt });
  return { id: row.id, secret: key };
}

export function clearReceiverSecretCache(): void {
  usableWebhooks.clear();
  openedKeys.clear();
}
