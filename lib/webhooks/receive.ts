import "server-only";
import { createSecretKey, type KeyObject, randomUUID } from "node:crypto";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { runSql, type TSqlRunner } from "@/lib/db/sql";
import { changeChannel, changePayload } from "@/lib/events/bus";
import type { WebhookDeliveryOutcome } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { applyOnArrival, applyStoredDelivery, type TArrivalRecord } from "./apply";
import { openWebhookSecret } from "./secret-box";
import { checkWebhookSignature, checkWebhookTimestamp } from "./signature";

// The receiver (docs/webhooks.md): every request is STORED with its verdict before anything is applied, forged
// ones included; only a verified, fresh one can change the mirror.

export const maxBodyBytes = 1024 * 1024;

export type TReceiveResult = {
  status: number;
  outcome: WebhookDeliveryOutcome;
  // Why it was refused, for the answer body; never more than the sender already knows.
  problem?: string;
};

type TBody = { kind: "ok"; bytes: Buffer } | { kind: "too_large"; bytes: number };

// No text decoding: it would alter invalid UTF-8, and the signature covers the raw bytes.
async function readRawBody(request: Request): Promise<TBody> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBodyBytes) {
    await request.body?.cancel().catch(() => {});
    return { kind: "too_large", bytes: declared };
  }
  if (!request.body) return { kind: "ok", bytes: Buffer.alloc(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBodyBytes) {
      await reader.cancel().catch(() => {});
      return { kind: "too_large", bytes: total };
    }
    chunks.push(value);
  }
  return { kind: "ok", bytes: Buffer.concat(chunks, total) };
}

// Everything but credentials a proxy may have added: kept for the history's detail view.
const droppedHeaders = new Set(["cookie", "authorization", "proxy-authorization"]);

function storedHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries(
    [...headers.entries()]
      .filter(([name]) => !droppedHeaders.has(name))
      .map(([name, value]) => [name, value.slice(0, 1000)]),
  );
}

// A record's secret never changes (rotation makes a new record), so the opened key is cached for a minute.
type TReceiverWebhook = { id: string; secret: KeyObject | null; secretProblem?: string };
const ZWebhookPathId = z.uuid();
const secretCacheMs = 60_000;
const secretCache = new Map<string, { webhook: TReceiverWebhook; expiresAt: number }>();

async function findReceiverWebhook(pathId: string): Promise<TReceiverWebhook | null> {
  if (!ZWebhookPathId.safeParse(pathId).success) return null;
  const cached = secretCache.get(pathId);
  if (cached && cached.expiresAt > Date.now()) return cached.webhook;
  const row = await db.webhook.findUnique({ where: { id: pathId }, select: { id: true, secretCiphertext: true } });
  if (!row) return null;
  // Not cached: the admin flow stores the secret right after the upstream registration answers.
  if (!row.secretCiphertext) return { id: row.id, secret: null };
  let webhook: TReceiverWebhook;
  try {
    webhook = {
      id: row.id,
      secret: createSecretKey(Buffer.from(openWebhookSecret(row.secretCiphertext, row.id), "utf8")),
    };
  } catch (error) {
    // Our configuration, not the sender's fault (WEBHOOK_SECRET_KEY changed): a 503 makes the gateway retry.
    log.error({ err: error, webhookId: row.id }, "webhook receiver: the stored secret does not open");
    return { id: row.id, secret: null, secretProblem: "the stored secret cannot be opened with WEBHOOK_SECRET_KEY" };
  }
  secretCache.set(pathId, { webhook, expiresAt: Date.now() + secretCacheMs });
  return webhook;
}

// Tests only.
export function clearReceiverSecretCache(): void {
  secretCache.clear();
}

type TRecord = {
  pathId: string;
  webhookId: string | null;
  headers: Headers;
  rawBody: Buffer;
  signatureValid: boolean;
  outcome: WebhookDeliveryOutcome;
  error?: string;
};

// Raw SQL: it runs on every delivery. With `dedupe` ($17) a delivery id already applied is stored as DUPLICATE;
// an outcome other than PENDING sends its notifications ($19) in the same statement.
const recordDeliverySql = `
WITH "stored" AS (
  INSERT INTO "WebhookDelivery" ("id", "pathId", "webhookId", "deliveryId", "event", "timestampHeader", "headers", "rawBody", "signatureValid",
    "outcome", "error", "eventKey", "resourceType", "resourceId", "changes", "appliedAt", "applyAttempts")
  SELECT $1::uuid, $2::text, $3::uuid, $4::text, $5::text, $6::text, $7::jsonb, $8::bytea, $9::boolean,
    (CASE WHEN done."id" IS NULL THEN $10::text ELSE 'DUPLICATE' END)::"WebhookDeliveryOutcome",
    CASE WHEN done."id" IS NULL THEN $11::text ELSE 'delivery id already applied' END,
    $12::text, $13::text, $14::text, $15::jsonb, ($16::timestamptz AT TIME ZONE 'UTC'), $18::int
  FROM (SELECT 1) AS one
  LEFT JOIN LATERAL (
    SELECT "id" FROM "WebhookDelivery"
    WHERE $17::boolean AND "deliveryId" = $4::text AND "signatureValid" AND "outcome" IN ('APPLIED', 'DUPLICATE')
    LIMIT 1
  ) AS done ON true
  RETURNING "outcome"
)
SELECT "outcome"::text AS "outcome",
  (SELECT count(pg_notify($20::text, "payload")) FROM jsonb_array_elements_text($19::jsonb) AS "payload" WHERE "stored"."outcome" <> 'PENDING')::int AS "notified"
FROM "stored"`;

type TApplied = Omit<TArrivalRecord, "outcome" | "error">;
const notApplied: TApplied = {
  eventKey: null,
  resourceType: null,
  resourceId: null,
  changes: null,
  appliedAt: null,
  applyAttempts: 0,
  notify: [],
};

async function recordDelivery(
  run: TSqlRunner,
  record: TRecord & { id?: string; applied?: TApplied },
  options: { dedupe?: boolean } = {},
): Promise<{ id: string; outcome: WebhookDeliveryOutcome }> {
  const id = record.id ?? randomUUID();
  const applied = record.applied ?? notApplied;
  const header = (name: string, max: number) => record.headers.get(name)?.slice(0, max) ?? null;
  // Live history: the delivery's own notification after any mirror change's.
  const notify = [...applied.notify, { kind: "webhook_delivery", id } as const].map(changePayload);
  const [row] = await run<{ outcome: WebhookDeliveryOutcome }>(recordDeliverySql, [
    id,
    record.pathId.slice(0, 100),
    record.webhookId,
    header("x-webhook-delivery", 200),
    header("x-webhook-event", 100),
    header("x-webhook-timestamp", 50),
    JSON.stringify(storedHeaders(record.headers)),
    new Uint8Array(record.rawBody),
    record.signatureValid,
    record.outcome,
    record.error ?? null,
    applied.eventKey,
    applied.resourceType,
    applied.resourceId,
    applied.changes === null ? null : JSON.stringify(applied.changes),
    applied.appliedAt?.toISOString() ?? null,
    options.dedupe === true,
    applied.applyAttempts,
    JSON.stringify(notify),
    changeChannel,
  ]);
  return { id, outcome: row!.outcome };
}

async function refuse(
  record: Omit<TRecord, "outcome" | "error">,
  outcome: WebhookDeliveryOutcome,
  status: number,
  problem: string,
): Promise<TReceiveResult> {
  await recordDelivery(runSql, { ...record, outcome, error: problem });
  return { status, outcome, problem };
}

export async function receiveGatewayDelivery(
  pathId: string,
  request: Request,
  now = new Date(),
): Promise<TReceiveResult> {
  const body = await readRawBody(request);
  const webhook = await findReceiverWebhook(pathId);
  const base = { pathId, webhookId: webhook?.id ?? null, headers: request.headers, signatureValid: false };
  if (body.kind === "too_large") {
    return refuse(
      { ...base, rawBody: Buffer.alloc(0) },
      "IGNORED",
      413,
      `body over ${maxBodyBytes} bytes (${body.bytes}); not stored`,
    );
  }
  const record = { ...base, rawBody: body.bytes };
  if (!webhook) return refuse(record, "REJECTED_SIGNATURE", 404, "no webhook with this id");
  if (!webhook.secret) {
    return refuse(
      record,
      "REJECTED_SIGNATURE",
      webhook.secretProblem ? 503 : 401,
      webhook.secretProblem ?? "the app does not hold this webhook's secret",
    );
  }

  const signature = checkWebhookSignature(webhook.secret, body.bytes, request.headers.get("x-webhook-signature"));
  if (!signature.isValid)
    return refuse(record, "REJECTED_SIGNATURE", 401, `signature ${signature.reason.replace("_", " ")}`);
  const verified = { ...record, signatureValid: true };
  const timestamp = checkWebhookTimestamp(request.headers.get("x-webhook-timestamp"), now);
  if (!timestamp.isFresh) return refuse(verified, "STALE", 401, `timestamp ${timestamp.reason.replaceAll("_", " ")}`);
  const deliveryId = request.headers.get("x-webhook-delivery");
  if (!deliveryId) return refuse(verified, "IGNORED", 400, "missing X-Webhook-Delivery header");
  // The common event is stored and applied in one transaction (null: not that event, or it failed).
  const id = randomUUID();
  const arrived = await applyOnArrival(
    { id, deliveryId: deliveryId.slice(0, 200), rawBody: body.bytes },
    async (run, { outcome, error, ...applied }) => {
      await recordDelivery(run, { ...verified, id, outcome, error: error ?? undefined, applied });
    },
  );
  if (arrived) return { status: 200, outcome: arrived };
  // When the gateway keeps X-Webhook-Delivery across retries, a retry whose 2xx was lost is a DUPLICATE at once;
  // with a new id per attempt (spec 6.2) the effect key catches it instead.
  const stored = await recordDelivery(runSql, { ...verified, outcome: "PENDING" }, { dedupe: true });
  if (stored.outcome === "DUPLICATE") return { status: 200, outcome: "DUPLICATE" };
  // Stored: the delivery is ours now, so the answer is 200 even when applying fails (the retry worker takes it).
  const outcome = await applyStoredDelivery({ id: stored.id, rawBody: body.bytes, applyAttempts: 0 }, now);
  return { status: 200, outcome };
}
