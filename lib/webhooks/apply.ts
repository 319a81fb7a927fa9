import "server-only";
import { db, inTransaction } from "@/lib/db/client";
import { transactionLockSql } from "@/lib/db/locks";
import { prismaSqlRunner, runSql, type TSqlRunner } from "@/lib/db/sql";
import { changeChannel, changePayload, type TChange } from "@/lib/events/bus";
import type { WebhookDeliveryOutcome } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { readConfirmedCopy } from "@/lib/reconcile/drift";
import { withSpan } from "@/lib/telemetry/tracing";
import { parseDeliveryBody, type TEventIdentity, type TParsedBody } from "./event-identity";
import type { TAnyEventKind, TApplyAuthority, TChangeRecord, TEffect } from "./event-kind";
import { nextApplyAttemptAt } from "./retry-schedule";

// Apply path (docs/webhooks.md): effect key, mirror change and outcome commit in ONE transaction; later ones are DUPLICATE.

type TReady =
  | { isConfirmed: true; data: unknown; prepared: unknown; authority?: TApplyAuthority }
  // Not the payload's event at the gateway: `data` is the gateway's copy, when it has one.
  | { isConfirmed: false; reason: string; data: unknown; prepared: unknown; authority?: TApplyAuthority };

// Upstream reads happen before the transaction: a money payload only says "look"; a copy moving back is read twice.
async function readyToApply(kind: TAnyEventKind, data: unknown, eventKey: string): Promise<TReady> {
  if (!kind.prepare && !kind.confirm) return { isConfirmed: true, data, prepared: undefined };
  const applied = await db.webhookEffect.findUnique({ where: { eventKey }, select: { eventKey: true } });
  if (applied) return { isConfirmed: true, data, prepared: undefined };
  const confirm = kind.confirm;
  if (!confirm) return { isConfirmed: true, data, prepared: await kind.prepare?.(data) };
  const { resourceId, state } = kind.identity(data);
  const { copy: upstream, isConfirmedBehind } = await readConfirmedCopy(
    () => confirm.readUpstream(data),
    async (copy) => copy !== null && (await confirm.isBehindMirror(copy)),
  );
  if (upstream === null) {
    const reason = `the gateway does not know ${kind.change} ${resourceId}`;
    return { isConfirmed: false, reason, data: undefined, prepared: undefined };
  }
  const authority = { source: "webhook", isBackwardConfirmed: isConfirmedBehind } as const;
  const prepared = await kind.prepare?.(upstream);
  const upstreamState = kind.identity(upstream).state;
  if (bearsOut(kind, upstream, data)) return { isConfirmed: true, data: upstream, prepared, authority };
  const reason = `the gateway reports ${upstreamState}, not ${state}; its copy was applied`;
  return { isConfirmed: false, reason, data: upstream, prepared, authority };
}

// A paid charge since partly refunded still bears out its paid event: each kind says what confirms it.
export function bearsOut(kind: TAnyEventKind, copy: unknown, announced: unknown): boolean {
  if (kind.confirm?.bearsOut) return kind.confirm.bearsOut(copy);
  return String(kind.identity(copy).state) === String(kind.identity(announced).state);
}

class AlreadyFinished extends Error {}

// `parsed`: the receiver's parse of `rawBody`, so it is parsed once.
export type TStoredDelivery = {
  id: string;
  rawBody: Uint8Array;
  applyAttempts: number;
  parsed?: TParsedBody;
};

type TFinish = {
  outcome: WebhookDeliveryOutcome;
  eventKey?: string;
  resourceType?: string;
  resourceId?: string;
  changes?: TChangeRecord[];
  appliedAt?: Date;
  error: string | null;
  applyAttempts: number;
  nextAttemptAt: Date | null;
};

// Only while still waiting: of two racing workers, the second finds it finished and rolls back.
const finishSql = `
WITH "finished" AS (
  UPDATE "WebhookDelivery" SET
    "outcome" = $2::text::"WebhookDeliveryOutcome",
    "eventKey" = COALESCE($3::text, "eventKey"),
    "resourceType" = COALESCE($4::text, "resourceType"),
    "resourceId" = COALESCE($5::text, "resourceId"),
    "changes" = COALESCE($6::jsonb, "changes"),
    "appliedAt" = COALESCE(($7::timestamptz AT TIME ZONE 'UTC'), "appliedAt"),
    "error" = $8::text,
    "applyAttempts" = $9::int,
    "nextAttemptAt" = ($10::timestamptz AT TIME ZONE 'UTC')
  WHERE "id" = $1::uuid AND "outcome" IN ('PENDING', 'FAILED')
  RETURNING 1
)
SELECT (SELECT count(*) FROM "finished")::int AS "count",
  (SELECT count(pg_notify($11::text, "payload")) FROM jsonb_array_elements_text($12::jsonb) AS "payload" WHERE EXISTS (SELECT 1 FROM "finished"))::int AS "notified"`;

async function finish(run: TSqlRunner, id: string, data: TFinish, alsoNotify: TChange[] = []): Promise<void> {
  const changes = [...alsoNotify, { kind: "webhook_delivery", id } as const];
  const notifications = changes.map(changePayload);
  const kinds = changes.map((change) => change.kind).join(",");
  const [row] = await withSpan("live update publish", { "change.kind": kinds }, () =>
    run<{ count: number }>(finishSql, [
      id,
      data.outcome,
      data.eventKey ?? null,
      data.resourceType ?? null,
      data.resourceId ?? null,
      data.changes === undefined ? null : JSON.stringify(data.changes),
      data.appliedAt?.toISOString() ?? null,
      data.error ?? null,
      data.applyAttempts,
      data.nextAttemptAt?.toISOString() ?? null,
      changeChannel,
      JSON.stringify(notifications),
    ]),
  );
  if (row!.count === 0) throw new AlreadyFinished();
}

// True when this delivery inserted the effect key; with `lockKey` it also takes the resource's lock (one round trip).
const claimEffectSql = `
WITH "claimed" AS (
  INSERT INTO "WebhookEffect" ("eventKey", "firstDeliveryId", "appliedAt") VALUES ($1::text, $2::uuid, now())
  ON CONFLICT ("eventKey") DO NOTHING
  RETURNING 1
)
SELECT count(*)::int AS "count"
FROM "claimed" LEFT JOIN LATERAL (SELECT ${transactionLockSql.byText("$3::text")} WHERE $3::text IS NOT NULL) AS "lock" ON true`;

async function claimEffect(
  run: TSqlRunner,
  eventKey: string,
  deliveryRowId: string,
  lockKey: string | null,
): Promise<boolean> {
  const [row] = await run<{ count: number }>(claimEffectSql, [eventKey, deliveryRowId, lockKey]);
  return row!.count === 1;
}

export function identityColumns(identity: TEventIdentity) {
  return { eventKey: identity.eventKey, resourceType: identity.resourceType, resourceId: identity.resourceId };
}

async function applyOnce(
  run: TSqlRunner,
  deliveryRowId: string,
  identity: TEventIdentity,
  attempts: number,
  lockKey: string | null,
  effect: () => Promise<TEffect>,
): Promise<WebhookDeliveryOutcome> {
  const done = { ...identityColumns(identity), applyAttempts: attempts, nextAttemptAt: null, error: null };
  if (!(await claimEffect(run, identity.eventKey, deliveryRowId, lockKey))) {
    await finish(run, deliveryRowId, { outcome: "DUPLICATE", ...done });
    return "DUPLICATE";
  }
  const { changes, notify } = await effect();
  await finish(run, deliveryRowId, { outcome: "APPLIED", ...done, changes, appliedAt: new Date() }, notify);
  return "APPLIED";
}

// Without the ledger: the gateway's copy is the truth whoever brings it; the payload's effect key stays free.
async function applyUnconfirmed(
  deliveryRowId: string,
  kind: TAnyEventKind,
  identity: TEventIdentity,
  attempts: number,
  ready: Extract<TReady, { isConfirmed: false }>,
): Promise<WebhookDeliveryOutcome> {
  const ignored = {
    outcome: "IGNORED" as const,
    resourceType: identity.resourceType,
    resourceId: identity.resourceId,
    error: ready.reason,
    applyAttempts: attempts,
    nextAttemptAt: null,
  };
  if (ready.data === undefined) {
    await finish(runSql, deliveryRowId, ignored);
    return "IGNORED";
  }
  return inTransaction(async (tx) => {
    const changes = await kind.apply(tx, ready.data, ready.prepared, ready.authority);
    await finish(prismaSqlRunner(tx), deliveryRowId, { ...ignored, changes });
    return "IGNORED" as const;
  });
}

// IGNORED keeps an unusable body for a later replay; FAILED stores the error for the retry worker.
export async function applyStoredDelivery(
  delivery: TStoredDelivery,
  now = new Date(),
): Promise<WebhookDeliveryOutcome> {
  const body = delivery.parsed ?? parseDeliveryBody(delivery.rawBody);
  const attempts = delivery.applyAttempts + 1;
  try {
    if (!body.isUsable) {
      await finish(runSql, delivery.id, {
        outcome: "IGNORED",
        error: body.reason,
        applyAttempts: attempts,
        nextAttemptAt: null,
      });
      return "IGNORED";
    }
    const { parsed, identity } = body;
    const ready = await readyToApply(parsed.kind, parsed.data, identity.eventKey);
    if (!ready.isConfirmed) return await applyUnconfirmed(delivery.id, parsed.kind, identity, attempts, ready);
    return await inTransaction((tx) =>
      applyOnce(prismaSqlRunner(tx), delivery.id, identity, attempts, null, async () => ({
        changes: await parsed.kind.apply(tx, ready.data, ready.prepared, ready.authority),
        notify: [],
      })),
    );
  } catch (error) {
    if (error instanceof AlreadyFinished) return currentOutcome(delivery.id);
    return recordFailure(delivery.id, body, attempts, error, now);
  }
}

async function currentOutcome(id: string): Promise<WebhookDeliveryOutcome> {
  return (await db.webhookDelivery.findUniqueOrThrow({ where: { id }, select: { outcome: true } })).outcome;
}

async function recordFailure(
  id: string,
  body: ReturnType<typeof parseDeliveryBody>,
  attempts: number,
  error: unknown,
  now: Date,
): Promise<WebhookDeliveryOutcome> {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const nextAttemptAt = nextApplyAttemptAt(attempts, now);
  log.error({ err: error, deliveryRowId: id, attempts, nextAttemptAt }, "webhook delivery: apply failed");
  try {
    await finish(runSql, id, {
      outcome: "FAILED",
      ...(body.isUsable ? identityColumns(body.identity) : {}),
      error: message.slice(0, 2000),
      applyAttempts: attempts,
      nextAttemptAt,
    });
    return "FAILED";
  } catch (finishError) {
    // The row stays PENDING: the retry worker picks it up, as after a crash.
    if (!(finishError instanceof AlreadyFinished))
      log.error({ err: finishError, deliveryRowId: id }, "webhook delivery: could not record the failure");
    return finishError instanceof AlreadyFinished ? currentOutcome(id) : "PENDING";
  }
}
