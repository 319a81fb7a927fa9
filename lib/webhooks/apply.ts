import "server-only";
import { db } from "@/lib/db/client";
import { publishChange } from "@/lib/events/bus";
import { getPixCharge } from "@/lib/gateway/pix-charges";
import { Prisma, type WebhookDeliveryOutcome } from "@/lib/generated/prisma/client";
import { lockPaymentLink, upsertPaymentLinkFromGateway } from "@/lib/links/mirror";
import { log } from "@/lib/log";
import { lockPixCharge, upsertPixChargeFromGateway, upsertPixRefundFromGateway, type MirrorClient, type MirrorOutcome } from "@/lib/pix/mirror";
import { parseDeliveryBody, type TEventIdentity, type TParsedEvent, type TResourceType } from "./event-identity";
import { nextApplyAttemptAt } from "./retry-schedule";

// The apply path shared by the receiver, the retry worker and manual replays. Exactly once: the
// event's effect key goes into WebhookEffect in the SAME transaction as the mirror change and the
// delivery's final outcome, so whichever delivery of an event commits first applies it and every
// other one (a retry, a replay, the same event through a second webhook) finds the key and is a
// DUPLICATE. The mirror functions themselves refuse to move a resource back, so an event that
// arrives after a later state changes nothing (APPLIED with an empty change list).

export type TChangeRecord = {
  kind: TResourceType;
  id: string;
  outcome: MirrorOutcome;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
};

const trackedFields: Record<TResourceType, string[]> = {
  pix_charge: ["status", "amountCents", "paidAt", "paidAmountCents", "payerName", "endToEndId", "refundedCents", "devolutionAllowed"],
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
  const rows = await tx.$queryRaw<Record<string, unknown>[]>`SELECT ${columns} FROM ${Prisma.raw(`"${table}"`)} WHERE ${Prisma.raw(`"${key}"`)} = ${id}`;
  return rows[0] ?? null;
}

function jsonValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : (value ?? null);
}

// Before/after of the tracked fields that differ; a created row has no "before".
function describeChange(kind: TResourceType, id: string, outcome: MirrorOutcome, before: object | null, after: object): TChangeRecord | null {
  const fields = trackedFields[kind].filter((field) => {
    const old = jsonValue((before as Record<string, unknown> | null)?.[field]);
    return !before || JSON.stringify(old) !== JSON.stringify(jsonValue((after as Record<string, unknown>)[field]));
  });
  if (fields.length === 0) return null;
  const pick = (row: object) => Object.fromEntries(fields.map((field) => [field, jsonValue((row as Record<string, unknown>)[field])]));
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
      return [describeChange("pix_charge", parsed.data.txid, result.outcome, before, result.charge)].filter((change) => change !== null);
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
      return [describeChange("payment_link", uuid, result.outcome, before, result.link)].filter((change) => change !== null);
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
// Raw SQL (as the claim below): these run on every delivery, and a Prisma model query costs several
// times a raw one (docs/webhooks.md, benchmark).
async function finish(client: MirrorClient | typeof db, id: string, data: TFinish): Promise<void> {
  const count = await client.$executeRaw`
    UPDATE "WebhookDelivery" SET
      "outcome" = ${data.outcome}::"WebhookDeliveryOutcome",
      "eventKey" = COALESCE(${data.eventKey ?? null}, "eventKey"),
      "resourceType" = COALESCE(${data.resourceType ?? null}, "resourceType"),
      "resourceId" = COALESCE(${data.resourceId ?? null}, "resourceId"),
      "changes" = COALESCE(${data.changes === undefined ? null : JSON.stringify(data.changes)}::jsonb, "changes"),
      "appliedAt" = COALESCE(${data.appliedAt ?? null}::timestamp, "appliedAt"),
      "error" = ${data.error ?? null},
      "applyAttempts" = ${data.applyAttempts},
      "nextAttemptAt" = ${data.nextAttemptAt ?? null}::timestamp
    WHERE "id" = ${id}::uuid AND "outcome" IN ('PENDING', 'FAILED')`;
  if (count === 0) throw new AlreadyFinished();
  await publishChange({ kind: "webhook_delivery", id }, client);
}

// Inserts the effect key unless it is there; true when this delivery is the one that applies it.
async function claimEffect(tx: MirrorClient, eventKey: string, deliveryRowId: string): Promise<boolean> {
  const inserted = await tx.$executeRaw`
    INSERT INTO "WebhookEffect" ("eventKey", "firstDeliveryId", "appliedAt") VALUES (${eventKey}, ${deliveryRowId}::uuid, now())
    ON CONFLICT ("eventKey") DO NOTHING`;
  return inserted === 1;
}

function identityColumns(identity: TEventIdentity) {
  return { eventKey: identity.eventKey, resourceType: identity.resourceType, resourceId: identity.resourceId };
}

/**
 * Applies a stored, verified delivery (PENDING or FAILED) and returns its new outcome: APPLIED,
 * DUPLICATE, IGNORED (not JSON, unknown event, wrong shape: nothing to apply, kept for a later
 * replay) or FAILED (the error is stored and the retry worker tries again at `nextAttemptAt`).
 */
export async function applyStoredDelivery(delivery: TStoredDelivery, now = new Date()): Promise<WebhookDeliveryOutcome> {
  const body = parseDeliveryBody(delivery.rawBody);
  const attempts = delivery.applyAttempts + 1;
  try {
    if (!body.isUsable) {
      await finish(db, delivery.id, { outcome: "IGNORED", error: body.reason, applyAttempts: attempts, nextAttemptAt: null });
      return "IGNORED";
    }
    const prepared = await prepare(body.parsed, body.identity.eventKey);
    return await db.$transaction(async (tx) => {
      if (!(await claimEffect(tx, body.identity.eventKey, delivery.id))) {
        await finish(tx, delivery.id, { outcome: "DUPLICATE", ...identityColumns(body.identity), applyAttempts: attempts, nextAttemptAt: null, error: null });
        return "DUPLICATE";
      }
      const changes = await applyEffect(tx, prepared);
      await finish(tx, delivery.id, {
        outcome: "APPLIED",
        ...identityColumns(body.identity),
        changes,
        appliedAt: new Date(),
        applyAttempts: attempts,
        nextAttemptAt: null,
        error: null,
      });
      return "APPLIED";
    });
  } catch (error) {
    if (error instanceof AlreadyFinished) return currentOutcome(delivery.id);
    return recordFailure(delivery.id, body, attempts, error, now);
  }
}

async function currentOutcome(id: string): Promise<WebhookDeliveryOutcome> {
  return (await db.webhookDelivery.findUniqueOrThrow({ where: { id }, select: { outcome: true } })).outcome;
}

async function recordFailure(id: string, body: ReturnType<typeof parseDeliveryBody>, attempts: number, error: unknown, now: Date): Promise<WebhookDeliveryOutcome> {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const nextAttemptAt = nextApplyAttemptAt(attempts, now);
  log.error({ err: error, deliveryRowId: id, attempts, nextAttemptAt }, "webhook delivery: apply failed");
  try {
    await finish(db, id, {
      outcome: "FAILED",
      ...(body.isUsable ? identityColumns(body.identity) : {}),
      error: message.slice(0, 2000),
      applyAttempts: attempts,
      nextAttemptAt,
    });
    return "FAILED";
  } catch (finishError) {
    // The row stays PENDING: the retry worker picks it up, as after a crash.
    if (!(finishError instanceof AlreadyFinished)) log.error({ err: finishError, deliveryRowId: id }, "webhook delivery: could not record the failure");
    return finishError instanceof AlreadyFinished ? currentOutcome(id) : "PENDING";
  }
}
