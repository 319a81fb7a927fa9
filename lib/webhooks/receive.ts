import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { countRateLimitHit } from "@/lib/auth/rate-limit";
import type { TRateLimitRule } from "@/lib/auth/rate-limit-window";
import { readRequestContext } from "@/lib/auth/request-context";
import { createGroupCommit } from "@/lib/db/group-commit";
import { runSql, runSqlForItems, type TSqlRunner } from "@/lib/db/sql";
import { changeChannel, changePayload } from "@/lib/events/bus";
import type { WebhookDeliveryOutcome } from "@/lib/generated/prisma/client";
import { bodyLimits, declaredBodyLength, readCappedBody } from "@/lib/http/read-body";
import { countWebhookApplied, countWebhookReceived } from "@/lib/telemetry/metrics";
import { applyStoredDelivery, identityColumns } from "./apply";
import { createArrivalBatcher, nothingApplied, type TArrivalOf, type TArrivalRecord } from "./arrival-batch";
import { parseDeliveryBody, type TEventIdentity, type TParsedBody } from "./event-identity";
import { findReceiverWebhook } from "./receiver-secrets";
import { checkWebhookSignature, checkWebhookTimestamp } from "./signature";
import { applyInTraceOfResource, tracedRowOf } from "./trace-context";

// Receiver (docs/webhooks.md): verify BEFORE storing anything; a refused delivery leaves only a summary, notifies nobody.

export const maxBodyBytes = bodyLimits.webhookDelivery;

export type TReceiveResult = {
  status: number;
  outcome: WebhookDeliveryOutcome;
  // Why it was refused, for the answer body; never more than the sender already knows.
  problem?: string;
  code?: string;
  retryAfterSeconds?: number;
};

// Refusals per sender address: past it, nothing more is stored until the window ends.
export const refusalRateLimit: TRateLimitRule = { limit: 60, windowMs: 10 * 60_000 };

// Spec 6.2: the gateway posts JSON. Parameters (charset) are allowed; anything else is not a delivery.
function isJsonContentType(value: string | null): boolean {
  return value?.split(";")[0]?.trim().toLowerCase() === "application/json";
}

// Only the headers that describe the delivery (spec 6.2); anything a sender or proxy adds is not stored.
const keptHeaders = new Set([
  "content-type",
  "user-agent",
  "x-webhook-event",
  "x-webhook-delivery",
  "x-webhook-timestamp",
  "x-webhook-signature",
]);

function storedHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries(
    [...headers.entries()]
      .filter(([name]) => keptHeaders.has(name))
      .map(([name, value]) => [name, value.slice(0, 1000)]),
  );
}

type TRecord = {
  pathId: string;
  webhookId: string | null;
  headers: Headers;
  rawBody: Buffer;
  signatureValid: boolean;
  outcome: WebhookDeliveryOutcome;
  error?: string;
  bodySha256?: string;
  // The first delivery of the same bytes: this one is stored as a reference to it, without body or headers.
  duplicateOfId?: string | null;
};

// Raw SQL, every delivery: with `dedupe` an applied delivery id is DUPLICATE; a non-PENDING row notifies $3 at commit.
const recordDeliveriesSql = `
WITH "incoming" AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x("id" uuid, "pathId" text, "webhookId" uuid, "deliveryId" text,
    "event" text, "timestampHeader" text, "headers" jsonb, "rawBody" text, "signatureValid" boolean, "outcome" text,
    "error" text, "eventKey" text, "resourceType" text, "resourceId" text, "changes" jsonb, "appliedAt" text,
    "applyAttempts" int, "notify" jsonb, "bodySha256" text, "duplicateOfId" uuid)
), "stored" AS (
  INSERT INTO "WebhookDelivery" ("id", "pathId", "webhookId", "deliveryId", "event", "timestampHeader", "headers", "rawBody", "signatureValid",
    "outcome", "error", "eventKey", "resourceType", "resourceId", "changes", "appliedAt", "applyAttempts", "bodySha256",
    "duplicateOfId")
  SELECT i."id", i."pathId", i."webhookId", i."deliveryId", i."event", i."timestampHeader", i."headers",
    decode(i."rawBody", 'base64'), i."signatureValid",
    (CASE WHEN done."id" IS NULL THEN i."outcome" ELSE 'DUPLICATE' END)::"WebhookDeliveryOutcome",
    CASE WHEN done."id" IS NULL THEN i."error" ELSE 'delivery id already applied' END,
    i."eventKey", i."resourceType", i."resourceId", i."changes", (i."appliedAt"::timestamptz AT TIME ZONE 'UTC'),
    i."applyAttempts", i."bodySha256", i."duplicateOfId"
  FROM "incoming" AS i
  LEFT JOIN LATERAL (
    SELECT "id" FROM "WebhookDelivery"
    WHERE $2::boolean AND "deliveryId" = i."deliveryId" AND "signatureValid" AND "outcome" IN ('APPLIED', 'DUPLICATE')
    LIMIT 1
  ) AS done ON true
  ON CONFLICT ("bodySha256") WHERE "duplicateOfId" IS NULL DO NOTHING
  RETURNING "id", "outcome"
)
SELECT s."id"::text AS "id", s."outcome"::text AS "outcome",
  (SELECT count(pg_notify($3::text, n."payload"))
   FROM "stored" AS t JOIN "incoming" AS i ON i."id" = t."id", jsonb_array_elements_text(i."notify") AS n("payload")
   WHERE t."outcome" <> 'PENDING')::int AS "notified"
FROM "stored" AS s`;

type TApplied = Omit<TArrivalRecord, "outcome" | "error">;

type TStoredRecord = TRecord & { id: string; applied?: TApplied };

function deliveryRow(record: TStoredRecord) {
  const applied: TApplied = record.applied ?? nothingApplied;
  const header = (name: string, max: number) => record.headers.get(name)?.slice(0, max) ?? null;
  return {
    id: record.id,
    pathId: record.pathId.slice(0, 100),
    webhookId: record.webhookId,
    deliveryId: header("x-webhook-delivery", 200),
    event: header("x-webhook-event", 100),
    timestampHeader: header("x-webhook-timestamp", 50),
    headers: record.duplicateOfId ? {} : storedHeaders(record.headers),
    rawBody: record.duplicateOfId ? "" : record.rawBody.toString("base64"),
    bodySha256: record.bodySha256 ?? null,
    duplicateOfId: record.duplicateOfId ?? null,
    signatureValid: record.signatureValid,
    outcome: record.outcome,
    error: record.error ?? null,
    eventKey: applied.eventKey,
    resourceType: applied.resourceType,
    resourceId: applied.resourceId,
    changes: applied.changes,
    appliedAt: applied.appliedAt?.toISOString() ?? null,
    applyAttempts: applied.applyAttempts,
    // Live history: the delivery's own notification after any mirror change's.
    notify: [...applied.notify, { kind: "webhook_delivery", id: record.id } as const].map(changePayload),
  };
}

type TStoredDelivery = { id: string; outcome: WebhookDeliveryOutcome };

// Two copies arriving together may both mean to be whole: the unique index lets one in, the other becomes a reference.
async function recordDeliveries(
  run: TSqlRunner,
  records: TStoredRecord[],
  options: { dedupe?: boolean } = {},
): Promise<TStoredDelivery[]> {
  const stored: TStoredDelivery[] = [];
  let pending = records;
  for (let round = 0; round < 2 && pending.length > 0; round++) {
    const rows = await run<TStoredDelivery>(recordDeliveriesSql, [
      JSON.stringify(pending.map(deliveryRow)),
      options.dedupe === true,
      changeChannel,
    ]);
    stored.push(...rows);
    const storedIds = new Set(rows.map((row) => row.id));
    const lost = pending.filter((record) => !storedIds.has(record.id));
    pending = [];
    for (const record of lost) {
      const first = await findFirstDeliveryOfBody(run, record.bodySha256!);
      pending.push({ ...record, duplicateOfId: first?.id ?? null });
    }
  }
  return stored;
}

type TVerifiedRecord = Omit<TRecord, "outcome" | "error">;

const applyOnArrival = createArrivalBatcher<TArrivalOf & { record: TVerifiedRecord }>((run, rows) =>
  recordDeliveries(
    run,
    rows.map(({ arrival, record: { outcome, error, ...applied } }) => ({
      ...arrival.record,
      id: arrival.id,
      outcome,
      error: error ?? undefined,
      applied,
    })),
  ).then(() => undefined),
);

// A refused request: sender, size, target and reason only; its body and headers are not ours to store.
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
  countWebhookReceived(outcome);
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

// Per body: the gateway retries each delivery a handful of times (spec 6.4), after an outage all of them at once.
export const repeatedBodyRateLimit: TRateLimitRule = { limit: 10, windowMs: 10 * 60_000 };

const firstDeliveryOfBodySql = `
SELECT "id"::text AS "id", "webhookId"::text AS "webhookId" FROM "WebhookDelivery"
WHERE "bodySha256" = $1::text AND "duplicateOfId" IS NULL
LIMIT 1`;

async function findFirstDeliveryOfBody(
  run: TSqlRunner,
  bodySha256: string,
): Promise<{ id: string; webhookId: string | null } | null> {
  const [row] = await run<{ id: string; webhookId: string | null }>(firstDeliveryOfBodySql, [bodySha256]);
  return row ?? null;
}

async function limitRepeatedBodies(webhookId: string, bodySha256: string, now: Date): Promise<TReceiveResult | null> {
  const window = await countRateLimitHit(`webhook-repeat:${webhookId}:${bodySha256}`, repeatedBodyRateLimit, now);
  if (window.count <= repeatedBodyRateLimit.limit) return null;
  const retryAfterSeconds = Math.max(1, Math.ceil((window.expiresAt.getTime() - now.getTime()) / 1000));
  return {
    status: 429,
    outcome: "DUPLICATE",
    code: "RATE_LIMITED",
    problem: "too many repeats of a delivered body",
    retryAfterSeconds,
  };
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
    bodyBytes: declaredBodyLength(request),
  };
  if (!isJsonContentType(request.headers.get("content-type"))) {
    await request.body?.cancel().catch(() => {});
    return refuse(summary, "IGNORED", 415, "content type is not application/json", now);
  }
  const body = await readCappedBody(request, maxBodyBytes);
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
  // A repeat of a stored body is stored as a reference, limited per webhook, and still applied (ledger: DUPLICATE).
  const bodySha256 = createHash("sha256").update(body.bytes).digest("hex");
  const parsed = parseDeliveryBody(body.bytes);
  const eventKey = parsed.isUsable ? parsed.identity.eventKey : null;
  const traced = tracedRowOf(parsed);
  const seen = traced
    ? (await runSqlForItems<TSeenRow>(seenSql(traced), [{ bodySha256, eventKey, resourceId: traced.resourceId }]))[0]
    : await lookUpSeen({ bodySha256, eventKey });
  const firstOfBody = seen?.id ? { id: seen.id, webhookId: seen.webhookId } : null;
  const duplicateOfId = firstOfBody?.id ?? null;
  // During a rotation overlap both webhooks deliver every body once: only a repeat on the same webhook counts.
  if (firstOfBody?.webhookId === webhook.id) {
    const limited = await limitRepeatedBodies(webhook.id, bodySha256, now);
    if (limited) return limited;
  }
  const verified = {
    pathId,
    webhookId: webhook.id,
    headers: request.headers,
    rawBody: body.bytes,
    signatureValid: true,
    bodySha256,
    duplicateOfId,
  };
  // The common event is stored and applied with its batch, in one transaction (null: not that event, or it failed).
  countWebhookReceived("ACCEPTED");
  const sentAt = new Date(Number(request.headers.get("x-webhook-timestamp")) * 1000);
  if (parsed.isUsable && seen?.isEffectDone) {
    const outcome = await recordRepeatOfApplied(verified, parsed.identity);
    countWebhookApplied(outcome, sentAt);
    return { status: 200, outcome };
  }
  const applied = await applyInTraceOfResource(parsed, seen?.traceParent ?? null, () =>
    applyVerified(verified, deliveryId, parsed, now),
  );
  countWebhookApplied(applied.outcome, sentAt);
  return applied;
}

// Per delivery: its bytes' first delivery, whether its event applied; a traced one (alone) its row's traceparent.
const seenSql = (traced: { table: string; key: string } | null) => `
WITH "items" AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x("index" int4, "bodySha256" text, "eventKey" text, "resourceId" text)
)
SELECT i."index", f."id", f."webhookId",
  (i."eventKey" IS NOT NULL AND EXISTS (SELECT 1 FROM "WebhookEffect" WHERE "eventKey" = i."eventKey")) AS "isEffectDone",
  ${traced ? `(SELECT "traceParent" FROM "${traced.table}" WHERE "${traced.key}" = i."resourceId")` : "NULL::text"} AS "traceParent"
FROM "items" AS i LEFT JOIN LATERAL (
  SELECT "id"::text AS "id", "webhookId"::text AS "webhookId" FROM "WebhookDelivery"
  WHERE "bodySha256" = i."bodySha256" AND "duplicateOfId" IS NULL
  LIMIT 1
) AS f ON true
ORDER BY i."index"`;

const untracedSeenSql = seenSql(null);
const lookUpSeen = createGroupCommit<{ bodySha256: string; eventKey: string | null }, TSeenRow | undefined>({
  maxItems: 64,
  run: (items) => runSqlForItems<TSeenRow>(untracedSeenSql, items),
});

type TSeenRow = { id: string | null; webhookId: string | null; isEffectDone: boolean; traceParent: string | null };

const recordRepeats = createGroupCommit<TStoredRecord, WebhookDeliveryOutcome>({
  maxItems: 64,
  run: async (records) => {
    const stored = await recordDeliveries(runSql, records, { dedupe: true });
    const outcomes = new Map(stored.map((row) => [row.id, row.outcome]));
    return records.map((record) => outcomes.get(record.id) ?? "DUPLICATE");
  },
});

// A re-send of an applied event is DUPLICATE without a gateway read (the effect came from that copy); stored in batches.
function recordRepeatOfApplied(verified: TVerifiedRecord, identity: TEventIdentity): Promise<WebhookDeliveryOutcome> {
  const applied = { ...nothingApplied, ...identityColumns(identity), applyAttempts: 1 };
  return recordRepeats({ ...verified, id: randomUUID(), outcome: "DUPLICATE", applied });
}

async function applyVerified(
  verified: TVerifiedRecord,
  deliveryId: string,
  parsed: TParsedBody,
  now: Date,
): Promise<TReceiveResult> {
  const id = randomUUID();
  const arrival = {
    id,
    deliveryId: deliveryId.slice(0, 200),
    parsed,
    bodyBytes: verified.rawBody.length,
    record: verified,
  };
  const arrived = await applyOnArrival(arrival);
  if (arrived === "APPLIED" || arrived === "DUPLICATE") return { status: 200, outcome: arrived };
  // A kept X-Webhook-Delivery makes a lost-2xx retry DUPLICATE; with new ids (spec 6.2) the effect key catches it.
  const stored =
    arrived === "PENDING"
      ? { id, outcome: "PENDING" as const }
      : (await recordDeliveries(runSql, [{ ...verified, id, outcome: "PENDING" }], { dedupe: true }))[0]!;
  if (stored.outcome === "DUPLICATE") return { status: 200, outcome: "DUPLICATE" };
  // Stored: the delivery is ours now, so the answer is 200 even when applying fails (the retry worker takes it).
  const outcome = await applyStoredDelivery(
    { id: stored.id, rawBody: verified.rawBody, applyAttempts: 0, parsed },
    now,
  );
  return { status: 200, outcome };
}
