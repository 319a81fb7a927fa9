import "server-only";
import { db } from "@/lib/db/client";
import { readDb } from "@/lib/db/read-replica";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TAlertRuleKey, TAlertSummaryParams } from "./rule-keys";

export type TIncidentRow = {
  id: string;
  ruleKey: string;
  subject: string;
  openedAt: Date;
  resolvedAt: Date | null;
  lastValue: number;
  detail: Prisma.JsonValue;
};

type TAlertIncidentView = {
  id: string;
  ruleKey: TAlertRuleKey;
  subject: string;
  openedAt: string;
  resolvedAt: string | null;
  summary: TAlertSummaryParams;
};

const numberOr = (value: unknown, fallback: number) => (typeof value === "number" ? value : fallback);

export function summaryParams(incident: Pick<TIncidentRow, "lastValue" | "detail">): TAlertSummaryParams {
  const detail = (typeof incident.detail === "object" && incident.detail ? incident.detail : {}) as Record<
    string,
    unknown
  >;
  return {
    value: incident.lastValue,
    threshold: numberOr(detail.threshold, 0),
    label: typeof detail.label === "string" ? detail.label : "",
    minutes: numberOr(detail.minutes, 0),
    baseline: numberOr(detail.baseline, 0),
  };
}

function toView(row: TIncidentRow): TAlertIncidentView {
  return {
    id: row.id,
    ruleKey: row.ruleKey as TAlertRuleKey,
    subject: row.subject,
    openedAt: row.openedAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    summary: summaryParams(row),
  };
}

/** Open incidents first (newest first), then the latest resolved ones. */
export async function listAlertIncidents({ resolvedLimit = 50 }: { resolvedLimit?: number } = {}) {
  const reader = await readDb();
  const open = await reader.alertIncident.findMany({ where: { resolvedAt: null }, orderBy: { openedAt: "desc" } });
  const resolved = await reader.alertIncident.findMany({
    where: { resolvedAt: { not: null } },
    orderBy: { resolvedAt: "desc" },
    take: resolvedLimit,
  });
  return { open: open.map(toView), resolved: resolved.map(toView) };
}

// Unread: opened or resolved since the person last looked. Read by every open dashboard, so from the replica.
export async function countUnreadAlerts(userId: string): Promise<number> {
  const reader = await readDb();
  const seen = await reader.alertSeen.findUnique({ where: { userId } });
  if (!seen) return reader.alertIncident.count({ where: { resolvedAt: null } });
  return reader.alertIncident.count({
    where: { OR: [{ openedAt: { gt: seen.seenAt } }, { resolvedAt: { gt: seen.seenAt } }] },
  });
}

export async function markAlertsSeen(userId: string, at = new Date()): Promise<void> {
  await db.alertSeen.upsert({ where: { userId }, create: { userId, seenAt: at }, update: { seenAt: at } });
}
