import "server-only";
import type { z } from "zod";
import type { TMirrorClient, TMirrorOutcome } from "@/lib/db/mirror-write";
import type { TSqlRunner } from "@/lib/db/sql";
import type { TChange, TChangeKind } from "@/lib/events/change";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TDriftSource } from "@/lib/reconcile/drift";
import type { TWebhookEvent } from "./event-names";

// What webhooks announce: the API sends no card events.
export type TResourceType = Extract<TChangeKind, "pix_charge" | "pix_refund" | "payment_link">;

export type TMirrorRow = { table: string; key: string; fields: readonly string[] };

export type TChangeRecord = {
  kind: TResourceType;
  id: string;
  outcome: TMirrorOutcome;
  before: Record<string, unknown> | null;
  after: Record<string, unknown>;
};

export type TEffect = { changes: TChangeRecord[]; notify: TChange[] };

// A gateway copy read for this delivery; written even as a move back when a second read confirmed it.
export type TApplyAuthority = { source: TDriftSource; isBackwardConfirmed: boolean };

export type TEventKind<E extends TWebhookEvent, D, P = undefined> = {
  event: E;
  // A body whose data fails it is IGNORED with the reason.
  schema: z.ZodType<D>;
  change: TResourceType;
  identity: (data: D) => { resourceId: string; state: string | number };
  row: TMirrorRow;
  // Money events: the payload only says "look"; the gateway's copy is applied, never the payload's status.
  confirm?: {
    readUpstream: (data: D) => Promise<D | null>;
    // Whether the mirror's never-backwards rule would refuse this copy: then it is read a second time first.
    isBehindMirror: (copy: D) => Promise<boolean>;
    // Whether the gateway's copy bears the announced event out; by default, when it is in the announced state.
    bearsOut?: (copy: D) => boolean;
  };
  // Upstream reads, outside the transaction; skipped when the effect is already in the ledger.
  prepare?: (data: D) => Promise<P>;
  // Runs in the apply transaction, with the ledger claim already held; `data` is the gateway's copy for a money event.
  apply: (
    tx: TMirrorClient,
    data: D,
    prepared: P | undefined,
    authority: TApplyAuthority | undefined,
  ) => Promise<TChangeRecord[]>;
  // Raw SQL for the hot case (copy in the announced state); `apply` returns null when the mirror refuses a move back.
  fastPath?: {
    accepts: (data: D) => boolean;
    lockKey: (data: D) => string;
    // Set-based for a batch with distinct lock keys: one result per item, null where refused.
    apply: (run: TSqlRunner, items: D[]) => Promise<Array<TEffect | null>>;
  };
  resourceHref: (resourceId: string) => Promise<string | null>;
};

export function defineEventKind<E extends TWebhookEvent, D, P = undefined>(
  kind: TEventKind<E, D, P>,
): TEventKind<E, D, P> {
  return kind;
}

export type TAnyEventKind = TEventKind<TWebhookEvent, unknown, unknown>;

// Raw SQL: it runs on every delivery.
export async function readMirrorRow(
  tx: TMirrorClient,
  row: TMirrorRow,
  id: string,
): Promise<Record<string, unknown> | null> {
  const columns = Prisma.join(row.fields.map((field) => Prisma.raw(`"${field}"`)));
  const rows = await tx.$queryRaw<
    Record<string, unknown>[]
  >`SELECT ${columns} FROM ${Prisma.raw(`"${row.table}"`)} WHERE ${Prisma.raw(`"${row.key}"`)} = ${id}`;
  return rows[0] ?? null;
}

function jsonValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : (value ?? null);
}

export function describeChange(
  resource: { change: TResourceType; row: TMirrorRow },
  id: string,
  outcome: TMirrorOutcome,
  before: object | null,
  after: object,
): TChangeRecord | null {
  const fields = resource.row.fields.filter((field) => {
    const old = jsonValue((before as Record<string, unknown> | null)?.[field]);
    return !before || JSON.stringify(old) !== JSON.stringify(jsonValue((after as Record<string, unknown>)[field]));
  });
  if (fields.length === 0) return null;
  const pick = (row: object) =>
    Object.fromEntries(fields.map((field) => [field, jsonValue((row as Record<string, unknown>)[field])]));
  return { kind: resource.change, id, outcome, before: before ? pick(before) : null, after: pick(after) };
}
