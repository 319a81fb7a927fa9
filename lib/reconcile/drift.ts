import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { inTransaction } from "@/lib/db/client";
import { changedFields, type TMirrorClient } from "@/lib/db/mirror-write";
import { readDb } from "@/lib/db/read-replica";
import { isGatewayNotFound } from "@/lib/gateway/errors";
import type { MirrorDrift, Prisma } from "@/lib/generated/prisma/client";
import { countDriftHealed } from "@/lib/telemetry/metrics";

// An authoritative read the never-backwards rule would refuse is confirmed by a second read, written and recorded here.

export type TDriftSource = "webhook" | "refresh" | "reconcile";
export const driftKinds = ["pix_charge", "pix_refund", "payment_link", "card_payment"] as const;
export type TDriftKind = (typeof driftKinds)[number];

/** `isReviewed`: a person asked for the gateway's copy (heal), so a difference held for review is applied. */
export type TMirrorAuthority = { source: TDriftSource; isBackwardConfirmed: boolean; isReviewed?: boolean };

export type TDrift = {
  kind: TDriftKind;
  resourceId: string;
  source: TDriftSource;
  mirror: Record<string, unknown>;
  gateway: Record<string, unknown>;
  // An amount change on a paid resource is left open, the mirror unchanged, until someone heals it.
  isHeldForReview?: boolean;
};

function jsonOf(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : (value ?? null);
}

// jsonb keeps its own key order, so compare field by field.
function sameJson(stored: Prisma.JsonValue, value: Prisma.InputJsonObject): boolean {
  if (!stored || typeof stored !== "object" || Array.isArray(stored)) return false;
  const keys = Object.keys(value);
  return (
    Object.keys(stored).length === keys.length &&
    keys.every((key) => JSON.stringify(stored[key]) === JSON.stringify(value[key]))
  );
}

/** Records a correction (or a difference held open) in MirrorDrift and the audit log, in the correcting transaction. */
export async function recordMirrorDrift(tx: TMirrorClient, drift: TDrift, now = new Date()): Promise<void> {
  const fields = Object.keys(changedFields(drift.mirror, drift.gateway));
  if (fields.length === 0) return;
  const pick = (row: Record<string, unknown>) =>
    Object.fromEntries(fields.map((field) => [field, jsonOf(row[field])])) as Prisma.InputJsonObject;
  const mirrorValue = pick(drift.mirror);
  const gatewayValue = pick(drift.gateway);
  const isOpen = drift.isHeldForReview === true;
  // Every run reads a held difference again: one open row per difference, not one per run.
  if (isOpen) {
    const open = await tx.mirrorDrift.findMany({
      where: { resourceKind: drift.kind, resourceId: drift.resourceId, healedAt: null },
      select: { gatewayValue: true },
    });
    if (open.some((row) => sameJson(row.gatewayValue, gatewayValue))) return;
  }
  await tx.mirrorDrift.create({
    data: {
      resourceKind: drift.kind,
      resourceId: drift.resourceId,
      fields,
      mirrorValue,
      gatewayValue,
      source: drift.source,
      detectedAt: now,
      healedAt: isOpen ? null : now,
    },
  });
  countDriftHealed(drift.kind);
  await recordAudit(
    {
      actor: null,
      action: isOpen ? "mirror.drift_held" : "mirror.drift_corrected",
      resourceType: drift.kind,
      resourceId: drift.resourceId,
      metadata: { source: drift.source, fields, mirror: mirrorValue, gateway: gatewayValue },
    },
    tx,
  );
}

/** Reads a mirrored row by id; a 404 (thrown, or readOrNullWhenUnknown's null) is held open for a person. */
export async function readOrHoldUnknown(
  kind: TDriftKind,
  resourceId: string,
  steps: { read: () => Promise<unknown>; mirrored: () => Promise<Record<string, unknown> | null> },
): Promise<void> {
  try {
    if ((await steps.read()) !== null) return;
  } catch (error) {
    if (!isGatewayNotFound(error)) throw error;
  }
  const mirror = await steps.mirrored();
  if (mirror) await holdUnknownAtGateway(kind, resourceId, mirror);
}

/** A difference held because the gateway answered 404 for a mirrored row. */
export function isHeldAsUnknown(gatewayValue: unknown): boolean {
  return typeof gatewayValue === "object" && gatewayValue !== null && "knownToGateway" in gatewayValue
    ? gatewayValue.knownToGateway === false
    : false;
}

async function holdUnknownAtGateway(kind: TDriftKind, resourceId: string, mirror: Record<string, unknown>) {
  const unknown = Object.fromEntries(Object.keys(mirror).map((field) => [field, null]));
  await inTransaction((tx) =>
    recordMirrorDrift(tx, {
      kind,
      resourceId,
      source: "reconcile",
      mirror: { knownToGateway: true, ...mirror },
      gateway: { knownToGateway: false, ...unknown },
      isHeldForReview: true,
    }),
  );
}

// When the copy would move the mirror back, read once more so a stale concurrent read cannot undo a change.
export async function readConfirmedCopy<T>(
  read: () => Promise<T>,
  isBehindMirror: (copy: T) => Promise<boolean>,
  options: { firstCopy?: T } = {},
): Promise<{ copy: T; isConfirmedBehind: boolean }> {
  const first = "firstCopy" in options ? (options.firstCopy as T) : await read();
  if (!(await isBehindMirror(first))) return { copy: first, isConfirmedBehind: false };
  const second = await read();
  return { copy: second, isConfirmedBehind: await isBehindMirror(second) };
}

export type TMirrorDriftFilter = { limit?: number; resourceKind?: TDriftKind; resourceId?: string };

export async function listMirrorDrift(filter: TMirrorDriftFilter = {}): Promise<MirrorDrift[]> {
  return (await readDb()).mirrorDrift.findMany({
    where: {
      ...(filter.resourceKind ? { resourceKind: filter.resourceKind } : {}),
      ...(filter.resourceId ? { resourceId: filter.resourceId } : {}),
    },
    orderBy: [{ detectedAt: "desc" }, { id: "asc" }],
    take: Math.min(Math.max(filter.limit ?? 50, 1), 500),
  });
}
