import "server-only";
import { createSecretKey, type KeyObject, randomUUID } from "node:crypto";
import { z } from "zod";
import { countRateLimitHit } from "@/lib/auth/rate-limit";
import type { TRateLimitRule } from "@/lib/auth/rate-limit-window";
import { readRequestContext } from "@/lib/auth/request-context";
import { runSql, type TSqlRunner } from "@/lib/db/sql";
import { changeChannel, changePayload } from "@/lib/events/bus";
import type { WebhookDeliveryOutcome } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { applyOnArrival, applyStoredDelivery, type TArrivalRecord } from "./apply";
import { parseDeliveryBody } from "./event-identity";
import { openWebhookSecret } from "./secret-box";
import { checkWebhookSignature, checkWebhookTimestamp } from "./signature";

// The receiver (docs/webhooks.md): a request is verified BEFORE anything of it is stored. A verified, fresh one is
// stored whole and applied; a refused one leaves a small summary (no body, no headers) and notifies nobody.

export const maxBodyBytes = 1024 * 1024;

export type TReceiveResult = {
  status: number;
  outcome: WebhookDeliveryOutcome;
  // Why it was refused, for the answer body; never more than the sender already knows.
  problem?: string;
  // The error code when it is not the outcome (RATE_LIMITED), and when to come back.
  code?: string;
  retryAfterSeconds?: number;
};

// Refusals per sender address: past it, nothing more is stored until the window ends.
export const refusalRateLimit: TRateLimitRule = { limit: 60, windowMs: 10 * 60_000 };

type TBody = { kind: "ok"; bytes: Buffer } | { kind: "too_large"; bytes: number };

function declaredLength(request: Request): number | null {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : null;
}

// Spec 6.2: the gateway posts JSON. Parameters (charset) are allowed; anything else is not a delivery.
function isJsonContentType(value: string | null): boolean {
  return value?.split(";")[0]?.trim().toLowerCase() === "application/json";
}

// No text decoding: it would alter invalid UTF-8, and the signature covers the raw bytes.
async function readRawBody(request: Request): Promise<TBody> {
  const declared = declaredLength(request);
  if (declared !== null && declared > maxBodyBytes) {
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

// A record's secret never changes (rotation makes a new record), so the opened key is cached. So is a usable record's
// state, for `webhookStateMaxAgeMs` and per process: most deliveries then read nothing before their transaction. The
// end of a rotation overlap (`retireAt`) is compared with the clock on every delivery, so a retired secret verifies
// nothing past it; the admin flows forget the cache in this process when they change a record (deactivation, a
// rotation's `retireAt`), and another process (a second instance) sees such a change within the max age. A record
// that is not usable (unknown, retired, deactivated, no secret yet) is read on every request, so the moment it becomes
// usable counts at once.
type TReceiverWebhook = {
  id: string;
  secret: KeyObject | null;
  secretProblem?: string;
  // Why this webhook verifies nothing any more.
  retiredBecause?: string;
};
type TUsableWebhook = { id: string; key: KeyObject; retireAt: number | null; readAt: number };
const ZWebhookPathId = z.uuid();
export const webhookStateMaxAgeMs = 1000;
// On globalThis: a production build may hold several copies of this module (one per route chunk), and the admin's
// forgetting must reach the receiver's copy.
const receiverCache = globalThis as typeof globalThis & { __paymentsReceiverWebhooks?: Map<string, TUsableWebhook> };
receiverCache.__paymentsReceiverWebhooks ??= new Map();
const usableWebhooks = receiverCache.__paymentsReceiverWebhooks;
const rotationOverReason = "webhook retired (rotation overlap over)";

const findWebhookSql = `
SELECT "id"::text AS "id", "secretCiphertext",
  to_char("retireAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "retireAt",
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

async function findReceiverWebhook(pathId: string, now: Date): Promise<TReceiverWebhook | null> {
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

// After a change to a webhook record (the admin flows), and in tests.
export function clearReceiverSecretCache(): void {
  usableWebhooks.clear();
  openedKeys.clear();
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

// A refused request: who sent how much where, and why. Its body and headers are not the sender's to store here.
type TRefusal = {
  pathId: string;
  webhookId: string | null;
  signatureValid: boolean;
  remoteIp: string | null;
  bodyBytes: number | null;
};

const recordRefusalSql = `
INSERT INTO "WebhookDelivery" ("id", "pathId", "webhookId", "headers", "rawBody", "signatureValid", "outcome", "error",
  "remoteIp", "bodyBytes")
VALUES ($1::uuid, $2::text, $3::uuid, '{}'::jsonb, ''::bytea, $4::boolean, $5::text::"WebhookDeliveryOutcome", $6::text,
  $7::text, $8::int)`;

async function refuse(
  refusal: TRefusal,
  outcome: WebhookDeliveryOutcome,
  status: number,
  problem: string,
  now: Date,
): Promise<TReceiveResult> {
  const window = await countRateLimitHit(`webhook-refusal:${refusal.remoteIp ?? "unknown"}`, refusalRateLimit, now);
  if (window.count > refusalRateLimit.limit) {
    const retryAfterSeconds = Math.max(1, Math.ceil((window.expiresAt.getTime() - now.getTime()) / 1000));
    return { status: 429, outcome, code: "RATE_LIMITED", problem: "too many refused requests", retryAfterSeconds };
  }
  await runSql(recordRefusalSql, [
    randomUUID(),
    refusal.pathId.slice(0, 100),
    refusal.webhookId,
    refusal.signatureValid,
    outcome,
    problem,
    refusal.remoteIp?.slice(0, 100) ?? null,
    refusal.bodyBytes,
  ]);
  return { status, outcome, problem };
}

export async function receiveGatewayDelivery(
  pathId: string,
  request: Request,
  now = new Date(),
): Promise<TReceiveResult> {
  const summary = {
    pathId,
    webhookId: null,
    signatureValid: false,
    remoteIp: readRequestContext(request.headers).ip,
    bodyBytes: declaredLength(request),
  };
  if (!isJsonContentType(request.headers.get("content-type"))) {
    await request.body?.cancel().catch(() => {});
    return refuse(summary, "IGNORED", 415, "content type is not application/json", now);
  }
  const body = await readRawBody(request);
  if (body.kind === "too_large") {
    return refuse({ ...summary, bodyBytes: body.bytes }, "IGNORED", 413, `body over ${maxBodyBytes} bytes`, now);
  }
  const webhook = await findReceiverWebhook(pathId, now);
  const refusal = { ...summary, webhookId: webhook?.id ?? null, bodyBytes: body.bytes.length };
  if (!webhook) return refuse(refusal, "REJECTED_SIGNATURE", 404, "no webhook with this id", now);
  // A retired or deactivated webhook's secret verifies nothing, even a correct signature.
  if (webhook.retiredBecause) return refuse(refusal, "REJECTED_SIGNATURE", 410, webhook.retiredBecause, now);
  if (!webhook.secret) {
    return refuse(
      refusal,
      "REJECTED_SIGNATURE",
      webhook.secretProblem ? 503 : 401,
      webhook.secretProblem ?? "the app does not hold this webhook's secret",
      now,
    );
  }

  const signatureHeader = request.headers.get("x-webhook-signature");
  // Spec 6.3 sends lowercase hex; the receiver takes exactly that form.
  if (signatureHeader && signatureHeader !== signatureHeader.toLowerCase())
    return refuse(refusal, "REJECTED_SIGNATURE", 401, "signature not lowercase hex", now);
  const signature = checkWebhookSignature(webhook.secret, body.bytes, signatureHeader);
  if (!signature.isValid)
    return refuse(refusal, "REJECTED_SIGNATURE", 401, `signature ${signature.reason.replace("_", " ")}`, now);
  const timestamp = checkWebhookTimestamp(request.headers.get("x-webhook-timestamp"), now);
  if (!timestamp.isFresh) {
    const problem = `timestamp ${timestamp.reason.replaceAll("_", " ")}`;
    return refuse({ ...refusal, signatureValid: true }, "STALE", 401, problem, now);
  }
  const deliveryId = request.headers.get("x-webhook-delivery");
  if (!deliveryId)
    return refuse({ ...refusal, signatureValid: true }, "IGNORED", 400, "missing X-Webhook-Delivery header", now);
  const verified = {
    pathId,
    webhookId: webhook.id,
    headers: request.headers,
    rawBody: body.bytes,
    signatureValid: true,
  };
  // The common event is stored and applied in one transaction (null: not that event, or it failed).
  const id = randomUUID();
  // Parsed and validated once, for both paths.
  const parsed = parseDeliveryBody(body.bytes);
  const arrived = await applyOnArrival(
    { id, deliveryId: deliveryId.slice(0, 200), parsed },
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
  const outcome = await applyStoredDelivery({ id: stored.id, rawBody: body.bytes, applyAttempts: 0, parsed }, now);
  return { status: 200, outcome };
}
