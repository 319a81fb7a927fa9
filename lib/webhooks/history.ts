import "server-only";
import { db } from "@/lib/db/client";
import { readDb } from "@/lib/db/read-replica";
import type { Prisma, WebhookDeliveryOutcome } from "@/lib/generated/prisma/client";
import { periodBounds } from "@/lib/list/period";
import { findListPage, type TListPage } from "@/lib/list/query";
import { defineListSpec } from "@/lib/list/spec";
import type { TChangeRecord, TResourceType } from "./event-kind";
import { resourceHref } from "./event-kinds";
import { deliveryPageSize, type TDeliveryFilters, webhookEventKey, ZDeliveryFilters } from "./schemas";
import { storedBodyOf } from "./stored-body";

export type TDeliveryListRow = {
  id: string;
  receivedAt: Date;
  event: string | null;
  outcome: WebhookDeliveryOutcome;
  resourceType: string | null;
  resourceId: string | null;
  deliveryId: string | null;
  signatureValid: boolean;
  webhookId: string | null;
  isReplay: boolean;
};

function webhookDeliveryListWhere(filters: Omit<TDeliveryFilters, "page" | "cursor">) {
  const bounds = periodBounds({ from: filters.from, to: filters.to });
  const where: Prisma.WebhookDeliveryWhereInput = {
    event: filters.event,
    outcome: filters.outcome,
    resourceId: filters.resourceId,
    deliveryId: filters.deliveryId,
    webhookId: filters.webhookId,
    receivedAt: bounds.gte || bounds.lt ? bounds : undefined,
  };
  return where;
}

export const webhookDeliveryList = defineListSpec({
  schema: ZDeliveryFilters,
  where: webhookDeliveryListWhere,
  select: {
    id: true,
    receivedAt: true,
    event: true,
    outcome: true,
    resourceType: true,
    resourceId: true,
    deliveryId: true,
    signatureValid: true,
    webhookId: true,
    replayOfId: true,
  } satisfies Prisma.WebhookDeliverySelect,
  field: "receivedAt",
  tieBreaker: "id",
});

export async function findWebhookDeliveries(
  filters: TDeliveryFilters,
  pageSize = deliveryPageSize,
): Promise<TListPage<TDeliveryListRow>> {
  const reader = await readDb();
  const where = webhookDeliveryListWhere(filters);
  return findListPage(
    { page: filters.page, pageSize, cursor: filters.cursor },
    {
      // Along the date index, so the count stops at `take` rows (Prisma orders a bounded count by the key).
      count: (take) => reader.webhookDelivery.count({ where, take, orderBy: { receivedAt: "desc" } }),
      keyset: {
        sort: "receivedAt",
        order: "desc",
        field: "receivedAt",
        tieBreaker: "id",
        cursorOf: (row) => [row.receivedAt, row.id],
      },
      findMany: async (window, keyset) => {
        const order = keyset?.order ?? "desc";
        const deliveries = await reader.webhookDelivery.findMany({
          where: keyset ? { AND: [where, keyset.where as Prisma.WebhookDeliveryWhereInput] } : where,
          orderBy: [{ receivedAt: order }, { id: order }],
          ...window,
          select: webhookDeliveryList.select,
        });
        return deliveries.map(({ replayOfId, ...row }) => ({ ...row, isReplay: replayOfId !== null }));
      },
    },
  );
}

type TDeliveryResourceLink = { kind: TResourceType; href: string; label: string };

type TDeliveryChange = { kind: TResourceType; id: string; fields: { field: string; before: string; after: string }[] };

export type TDeliveryDetail = {
  id: string;
  receivedAt: Date;
  event: string | null;
  outcome: WebhookDeliveryOutcome;
  deliveryId: string | null;
  timestampHeader: string | null;
  sentAt: Date | null;
  eventMessageKey: string | null;
  // Headers (with the signature) and the raw body are for admins only: null for anyone else.
  headers: [string, string][] | null;
  body: string | null;
  prettyBody: string | null;
  // A repeat of an earlier delivery's body, stored as a reference to it.
  duplicateOfId: string | null;
  signatureValid: boolean;
  eventKey: string | null;
  changes: TDeliveryChange[];
  noChangesKey: "noneApplied" | "noneDuplicate" | "none";
  error: string | null;
  applyAttempts: number;
  nextAttemptAt: Date | null;
  appliedAt: Date | null;
  replayOfId: string | null;
  webhook: { id: string; url: string; upstreamId: string | null; hasSecret: boolean } | null;
  resource: TDeliveryResourceLink | null;
  // Only a verified delivery can be applied again by hand (lib/webhooks/replay.ts).
  canReplay: boolean;
};

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function headerEntries(headers: Prisma.JsonValue): [string, string][] {
  if (!headers || typeof headers !== "object" || Array.isArray(headers)) return [];
  return Object.entries(headers)
    .map(([name, value]): [string, string] => [name, Array.isArray(value) ? value.join(", ") : String(value ?? "")])
    .sort(([a], [b]) => a.localeCompare(b));
}

function displayValue(value: unknown): string {
  return value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value);
}

function changesOf(changes: Prisma.JsonValue): TDeliveryChange[] {
  return ((Array.isArray(changes) ? changes : []) as TChangeRecord[]).map((change) => ({
    kind: change.kind,
    id: change.id,
    fields: Object.entries(change.after).map(([field, after]) => ({
      field,
      before: displayValue(change.before?.[field]),
      after: displayValue(after),
    })),
  }));
}

function sentAtOf(timestampHeader: string | null): Date | null {
  return timestampHeader && /^\d{1,12}$/.test(timestampHeader) ? new Date(Number(timestampHeader) * 1000) : null;
}

async function resourceLink(
  resourceType: string | null,
  resourceId: string | null,
): Promise<TDeliveryResourceLink | null> {
  if (!resourceId || !resourceType) return null;
  const href = await resourceHref(resourceType, resourceId);
  return href ? { kind: resourceType as TResourceType, href, label: resourceId } : null;
}

export async function getWebhookDeliveryDetail(
  id: string,
  viewer: { canSeeRaw: boolean },
): Promise<TDeliveryDetail | null> {
  const delivery = await db.webhookDelivery.findUnique({
    where: { id },
    include: { webhook: { select: { id: true, url: true, upstreamId: true, secretCiphertext: true } } },
  });
  if (!delivery) return null;
  const body = viewer.canSeeRaw ? Buffer.from(await storedBodyOf(delivery)).toString("utf8") : null;
  const { webhook } = delivery;
  return {
    id: delivery.id,
    receivedAt: delivery.receivedAt,
    event: delivery.event,
    outcome: delivery.outcome,
    deliveryId: delivery.deliveryId,
    timestampHeader: delivery.timestampHeader,
    sentAt: sentAtOf(delivery.timestampHeader),
    eventMessageKey: delivery.event ? webhookEventKey(delivery.event) : null,
    headers: viewer.canSeeRaw ? headerEntries(delivery.headers) : null,
    body,
    prettyBody: body === null ? null : prettyJson(body),
    duplicateOfId: delivery.duplicateOfId,
    signatureValid: delivery.signatureValid,
    eventKey: delivery.eventKey,
    changes: changesOf(delivery.changes),
    noChangesKey:
      delivery.outcome === "APPLIED" ? "noneApplied" : delivery.outcome === "DUPLICATE" ? "noneDuplicate" : "none",
    error: delivery.error,
    applyAttempts: delivery.applyAttempts,
    nextAttemptAt: delivery.nextAttemptAt,
    appliedAt: delivery.appliedAt,
    replayOfId: delivery.replayOfId,
    webhook: webhook
      ? {
          id: webhook.id,
          url: webhook.url,
          upstreamId: webhook.upstreamId,
          hasSecret: webhook.secretCiphertext !== null,
        }
      : null,
    resource: await resourceLink(delivery.resourceType, delivery.resourceId),
    canReplay: delivery.signatureValid,
  };
}

// Answered 2xx and left the mirror right; PENDING is still undecided and counts for neither side.
const successfulOutcomes: WebhookDeliveryOutcome[] = ["APPLIED", "DUPLICATE", "IGNORED"];

export type TWebhookDeliveryStats = { lastReceivedAt: Date | null; count24h: number; successRate24h: number | null };

export async function getWebhookDeliveryStats(
  webhookIds: string[],
  now: Date = new Date(),
): Promise<Map<string, TWebhookDeliveryStats>> {
  const stats = new Map<string, TWebhookDeliveryStats>(
    webhookIds.map((id) => [id, { lastReceivedAt: null, count24h: 0, successRate24h: null }]),
  );
  if (webhookIds.length === 0) return stats;
  const since = new Date(now.getTime() - 24 * 3600 * 1000);
  const [last, recent] = await Promise.all([
    db.webhookDelivery.groupBy({
      by: ["webhookId"],
      where: { webhookId: { in: webhookIds } },
      _max: { receivedAt: true },
    }),
    db.webhookDelivery.groupBy({
      by: ["webhookId", "outcome"],
      where: { webhookId: { in: webhookIds }, receivedAt: { gte: since }, outcome: { not: "PENDING" } },
      _count: { _all: true },
    }),
  ]);
  for (const row of last) {
    const entry = row.webhookId ? stats.get(row.webhookId) : undefined;
    if (entry) entry.lastReceivedAt = row._max.receivedAt;
  }
  const successes = new Map<string, number>();
  for (const row of recent) {
    const entry = row.webhookId ? stats.get(row.webhookId) : undefined;
    if (!entry || !row.webhookId) continue;
    entry.count24h += row._count._all;
    if (successfulOutcomes.includes(row.outcome))
      successes.set(row.webhookId, (successes.get(row.webhookId) ?? 0) + row._count._all);
  }
  for (const [id, entry] of stats) {
    if (entry.count24h > 0) entry.successRate24h = (successes.get(id) ?? 0) / entry.count24h;
  }
  return stats;
}
