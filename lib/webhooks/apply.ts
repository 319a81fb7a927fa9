import "server-only";
import { db } from "@/lib/db/client";
import { inSqlTransaction, prismaSqlRunner, runSql, type SqlRunner } from "@/lib/db/sql";
import { changeChannel, changePayload, type TChange } from "@/lib/events/bus";
import { getPixCharge } from "@/lib/gateway/pix-charges";
import type { TPixCharge } from "@/lib/gateway/schemas/pix-charge";
import { Prisma, type WebhookDeliveryOutcome } from "@/lib/generated/prisma/client";
import { lockPaymentLink, upsertPaymentLinkFromGateway } from "@/lib/links/mirror";
import { isPaymentLinkCharge, recordLinkPaymentFromCharge } from "@/lib/links/pix";
import { log } from "@/lib/log";
import {
  chargeChangeColumns,
  lockPixCharge,
  type MirrorClient,
  type MirrorOutcome,
  pixChargeLockKey,
  upsertPixChargeFromGateway,
  upsertPixRefundFromGateway,
  writeFullChargeWithoutRefunds,
} from "@/lib/pix/mirror";
import {
  parseDeliveryBody,
  type TEventIdentity,
  type TParsedBody,
  type TParsedEvent,
  type TResourceType,
} from "./event-identity";
import { nextApplyAttemptAt } from "./retry-schedule";

// The apply path shared by the receiver, the retry worker and manual replays. Exactly once: the
// event's effect key goes into WebhookEffect in the SAME transaction as the mirror change and the
// delivery's final outcome, so whichever delivery of an event commits first applies it and every
// other one (a retry, a replay, the same event through a second webhook) finds the key and is a
// DUPLICATE. The mirror functions themselves refuse to move a resource back, so an event that
// arrives after a later state changes nothing (APPLIED with an empty change list).
// The common event, `pix_charge.paid` without refunds, takes raw SQL in one transaction (claim and
// lock, mirror write, final write with its notifications), and on arrival even stores the delivery
// in that transaction (applyOnArrival); every other event takes the mirror's general functions
// through Prisma.

export type TChangeRecord = {
  kind: TResourceType;
  id: string;
  outcome: MirrorOutcome;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
};

const trackedFields: Record<TResourceType, string[]> = {
  pix_charge: [...chargeChangeColumns],
  pix_refund: ["statusCode", "statusDescription", "statusReason", "amountCents", "settlementDate"],
  payment_link: ["statusCode", "statusDescription", "amountCents", "paidMethodCode", "paymentReceipt", "transactionId"],
};

const tables: Record<TResourceType, { table: string; key: string }> = {
  pix_charge: { table: "PixCharge", key: "txid" },
  pix_refund: { table: "PixRefund", key: "pixRefundId" },
  payment_link: { table: "PaymentLink", key: "linkPaymentUuid" },
};

// The tracked fields of a mirrored row before the change (raw SQL: it runs on every delivery).
async function readTracked(tx: MirrorClient, kind: TResourceType, id: string): Promise<Record<string, unknown> | null> {
  const { table, key } = tables[kind];
  const columns = Prisma.join(trackedFields[kind].map((field) => Prisma.raw(`"${field}"`)));
  const rows = await tx.$queryRaw<
    Record<string, unknown>[]
  >`SELECT ${columns} FROM ${Prisma.raw(`"${table}"`)} WHERE ${Prisma.raw(`"${key}"`)} = ${id}`;
  return rows[0] ?? null;
}

function jsonValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : (value ?? null);
}

// Before/after of the tracked fields that differ; a created row has no "before".
function describeChange(
  kind: TResourceType,
  id: string,
  outcome: MirrorOutcome,
  before: object | null,
  after: object,
): TChangeRecord | null {
  const fields = trackedFields[kind].filter((field) => {
    const old = jsonValue((before as Record<string, unknown> | null)?.[field]);
    return !before || JSON.stringify(old) !== JSON.stringify(jsonValue((after as Record<string, unknown>)[field]));
  });
  if (fields.length === 0) return null;
  const pick = (row: object) =>
    Object.fromEntries(fields.map((field) => [field, jsonValue((row as Record<string, unknown>)[field])]));
  return { kind, id, outcome, before: before ? pick(before) : null, after: pick(after) };
}

// Reads done before the transaction: a settled refund changes its charge (status, refunded amount),
// and its charge may not be mirrored yet (the refund's event can arrive before the charge's paid
// event), so the charge is read upstream. A failed read fails the apply, which is retried.
type TPrepared = { parsed: TParsedEvent; chargeOfRefund?: Awaited<ReturnType<typeof getPixCharge>> };

async function prepare(parsed: TParsedEvent, eventKey: string): Promise<TPrepared> {
  if (parsed.event !== "pix_refund.returned") return { parsed };
  // A duplicate (retry, replay) needs no upstream read: the transaction finds its key and stops.
  const applied = await db.webhookEffect.findUnique({ where: { eventKey }, select: { eventKey: true } });
  return { parsed, chargeOfRefund: applied ? undefined : await getPixCharge(parsed.data.pixChargeTxid) };
}

async function applyEffect(tx: MirrorClient, { parsed, chargeOfRefund }: TPrepared): Promise<TChangeRecord[]> {
  switch (parsed.event) {
    case "pix_charge.paid": {
      await lockPixCharge(tx, parsed.data.txid);
      const before = await readTracked(tx, "pix_charge", parsed.data.txid);
      const result = await upsertPixChargeFromGateway(parsed.data, { client: tx });
      await recordLinkPaymentFromCharge(parsed.data, { client: tx });
      return [describeChange("pix_charge", parsed.data.txid, result.outcome, before, result.charge)].filter(
        (change) => change !== null,
      );
    }
    case "pix_refund.returned": {
      const refund = parsed.data;
      await lockPixCharge(tx, refund.pixChargeTxid);
      const chargeBefore = await readTracked(tx, "pix_charge", refund.pixChargeTxid);
      const refundBefore = await readTracked(tx, "pix_refund", refund.pixRefundId);
      // Only when the effect was claimed by someone else after prepare() and then rolled back: retried.
      if (!chargeOfRefund) throw new Error(`the charge ${refund.pixChargeTxid} was not read upstream`);
      const charge = await upsertPixChargeFromGateway(chargeOfRefund, { client: tx });
      const written = await upsertPixRefundFromGateway(refund, { client: tx });
      const refundAfter = await tx.pixRefund.findUniqueOrThrow({ where: { pixRefundId: refund.pixRefundId } });
      const chargeAfter = await tx.pixCharge.findUniqueOrThrow({ where: { txid: refund.pixChargeTxid } });
      return [
        describeChange("pix_refund", refund.pixRefundId, written?.outcome ?? "created", refundBefore, refundAfter),
        describeChange("pix_charge", refund.pixChargeTxid, charge.outcome, chargeBefore, chargeAfter),
      ].filter((change) => change !== null);
    }
    case "link_payment.paid": {
      const uuid = parsed.data.linkPaymentUuid;
      await lockPaymentLink(tx, uuid);
      const before = await readTracked(tx, "payment_link", uuid);
      const result = await upsertPaymentLinkFromGateway(parsed.data, { client: tx });
      return [describeChange("payment_link", uuid, result.outcome, before, result.link)].filter(
        (change) => change !== null,
      );
    }
  }
}

const retryableOutcomes: WebhookDeliveryOutcome[] = ["PENDING", "FAILED"];

class AlreadyFinished extends Error {}

export type TStoredDelivery = { id: string; rawBody: Uint8Array; applyAttempts: number };

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

// The final write of a delivery, only while it is still waiting: when two workers race on one row
// (the receiver and the retry worker after a slow apply), the second finds it finished and rolls back.
// It sends the delivery's notification and `alsoNotify` in the same statement; inside a transaction
// PostgreSQL delivers them at commit only.
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

async function finish(run: SqlRunner, id: string, data: TFinish, alsoNotify: TChange[] = []): Promise<void> {
  const notifications = [...alsoNotify, { kind: "webhook_delivery", id } as const].map(changePayload);
  const [row] = await run<{ count: number }>(finishSql, [
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
  ]);
  if (row!.count === 0) throw new AlreadyFinished();
}

// Inserts the effect key unless it is there; true when this delivery is the one that applies it.
// With `lockKey`, the claimer also takes that advisory lock (the resource's, see pixChargeLockKey)
// in the same statement: one round trip less on the hot path.
const claimEffectSql = `
WITH "claimed" AS (
  INSERT INTO "WebhookEffect" ("eventKey", "firstDeliveryId", "appliedAt") VALUES ($1::text, $2::uuid, now())
  ON CONFLICT ("eventKey") DO NOTHING
  RETURNING 1
)
SELECT count(*)::int AS "count"
FROM "claimed" LEFT JOIN LATERAL (SELECT pg_advisory_xact_lock(hashtextextended($3::text, 0)) WHERE $3::text IS NOT NULL) AS "lock" ON true`;

async function claimEffect(
  run: SqlRunner,
  eventKey: string,
  deliveryRowId: string,
  lockKey: string | null,
): Promise<boolean> {
  const [row] = await run<{ count: number }>(claimEffectSql, [eventKey, deliveryRowId, lockKey]);
  return row!.count === 1;
}

function identityColumns(identity: TEventIdentity) {
  return { eventKey: identity.eventKey, resourceType: identity.resourceType, resourceId: identity.resourceId };
}

type TEffect = { changes: TChangeRecord[]; notify: TChange[] };

// Claim, apply, final write: one delivery's transaction, run by `run`.
async function applyOnce(
  run: SqlRunner,
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

function isPaidChargeWithoutRefunds(
  body: TParsedBody,
): body is TParsedBody & { isUsable: true; parsed: { event: "pix_charge.paid"; data: TPixCharge } } {
  // A payment link's charge takes the general path, which also marks the link paid.
  return (
    body.isUsable &&
    body.parsed.event === "pix_charge.paid" &&
    !body.parsed.data.devolutions?.length &&
    !isPaymentLinkCharge(body.parsed.data.userReference)
  );
}

// pix_charge.paid without refunds, the charge's lock already held (claimEffect).
async function applyPaidCharge(run: SqlRunner, charge: TPixCharge): Promise<TEffect> {
  const written = await writeFullChargeWithoutRefunds(run, charge, new Date());
  const change = describeChange("pix_charge", charge.txid, written.outcome, written.before, written.after);
  const isWritten = written.outcome === "created" || written.outcome === "updated";
  return { changes: change ? [change] : [], notify: isWritten ? [{ kind: "pix_charge", id: charge.txid }] : [] };
}

/**
 * Applies a stored, verified delivery (PENDING or FAILED) and returns its new outcome: APPLIED,
 * DUPLICATE, IGNORED (not JSON, unknown event, wrong shape: nothing to apply, kept for a later
 * replay) or FAILED (the error is stored and the retry worker tries again at `nextAttemptAt`).
 */
export async function applyStoredDelivery(
  delivery: TStoredDelivery,
  now = new Date(),
): Promise<WebhookDeliveryOutcome> {
  const body = parseDeliveryBody(delivery.rawBody);
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
    if (isPaidChargeWithoutRefunds(body)) {
      const charge = body.parsed.data;
      return await inSqlTransaction((run) =>
        applyOnce(run, delivery.id, body.identity, attempts, pixChargeLockKey(charge.txid), () =>
          applyPaidCharge(run, charge),
        ),
      );
    }
    const { parsed, identity } = body;
    const prepared = await prepare(parsed, identity.eventKey);
    return await db.$transaction((tx) =>
      applyOnce(prismaSqlRunner(tx), delivery.id, identity, attempts, null, async () => ({
        changes: await applyEffect(tx, prepared),
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

// On arrival: the delivery id already applied (a retry whose 2xx was lost), then the effect claim
// and the charge's lock, in one statement.
const claimOnArrivalSql = `
WITH "done" AS (
  SELECT 1 FROM "WebhookDelivery"
  WHERE "deliveryId" = $4::text AND "signatureValid" AND "outcome" IN ('APPLIED', 'DUPLICATE')
  LIMIT 1
), "claimed" AS (
  INSERT INTO "WebhookEffect" ("eventKey", "firstDeliveryId", "appliedAt")
  SELECT $1::text, $2::uuid, now() WHERE NOT EXISTS (SELECT 1 FROM "done")
  ON CONFLICT ("eventKey") DO NOTHING
  RETURNING 1
)
SELECT EXISTS (SELECT 1 FROM "done") AS "isDeliveryDone",
  (SELECT count(*) FROM "claimed", LATERAL (SELECT pg_advisory_xact_lock(hashtextextended($3::text, 0))) AS "lock")::int AS "claimed"`;

/** What the receiver stores for a delivery applied on arrival, with the notifications to send with it. */
export type TArrivalRecord = {
  outcome: "APPLIED" | "DUPLICATE";
  error: string | null;
  eventKey: string | null;
  resourceType: string | null;
  resourceId: string | null;
  changes: TChangeRecord[] | null;
  appliedAt: Date | null;
  applyAttempts: number;
  notify: TChange[];
};

/**
 * The receiver's common case, a verified `pix_charge.paid` without refunds, stored and applied in
 * ONE transaction: the delivery row is inserted by `store` with its final outcome, beside the effect
 * claim and the mirror change, so there is never an effect without its delivery, nor a delivery
 * answered 2xx that is not stored. Returns null, having changed nothing, for any other body or when
 * the transaction fails; the receiver then stores the delivery first and applies it as usual, which
 * keeps a failure for the retry worker. Same outcomes and stored data as that path.
 */
export async function applyOnArrival(
  delivery: { id: string; deliveryId: string; rawBody: Uint8Array },
  store: (run: SqlRunner, record: TArrivalRecord) => Promise<void>,
): Promise<"APPLIED" | "DUPLICATE" | null> {
  const body = parseDeliveryBody(delivery.rawBody);
  if (!isPaidChargeWithoutRefunds(body)) return null;
  const charge = body.parsed.data;
  const nothing = {
    error: null,
    eventKey: null,
    resourceType: null,
    resourceId: null,
    changes: null,
    appliedAt: null,
    notify: [],
  };
  try {
    return await inSqlTransaction(async (run) => {
      const [claim] = await run<{ isDeliveryDone: boolean; claimed: number }>(claimOnArrivalSql, [
        body.identity.eventKey,
        delivery.id,
        pixChargeLockKey(charge.txid),
        delivery.deliveryId,
      ]);
      if (claim!.isDeliveryDone) {
        await store(run, { ...nothing, outcome: "DUPLICATE", error: "delivery id already applied", applyAttempts: 0 });
        return "DUPLICATE";
      }
      const identity = { ...identityColumns(body.identity), applyAttempts: 1 };
      if (claim!.claimed === 0) {
        await store(run, { ...nothing, ...identity, outcome: "DUPLICATE" });
        return "DUPLICATE";
      }
      const { changes, notify } = await applyPaidCharge(run, charge);
      await store(run, { ...identity, outcome: "APPLIED", error: null, changes, appliedAt: new Date(), notify });
      return "APPLIED";
    });
  } catch (error) {
    log.warn(
      { err: error, deliveryRowId: delivery.id },
      "webhook delivery: applying on arrival failed; storing it first and applying it again",
    );
    return null;
  }
}
