import "server-only";
import { timeZone } from "@/lib/i18n/config";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import type { AuditAction } from "./audit-actions";
import { auditPageSize, type TAuditFilters } from "./audit-filters";

export type AuditActor = { id: string | null; email: string } | null;

export type TRecordAuditInput = {
  actor: AuditActor;
  action: AuditAction;
  resourceType?: string;
  resourceId?: string;
  ip?: string | null;
  userAgent?: string | null;
  metadata?: Prisma.InputJsonObject;
};

type AuditWriter = Pick<Prisma.TransactionClient, "auditLog">;

// Pass the transaction client when the change and its entry must stand or fall together.
export async function recordAudit(input: TRecordAuditInput, client: AuditWriter = db): Promise<void> {
  await client.auditLog.create({
    data: {
      actorId: input.actor?.id ?? null,
      actorEmail: input.actor?.email ?? null,
      action: input.action,
      resourceType: input.resourceType ?? null,
      resourceId: input.resourceId ?? null,
      ip: input.ip ?? null,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
      metadata: input.metadata,
    },
  });
  log.debug({ action: input.action, actorId: input.actor?.id, resourceType: input.resourceType, resourceId: input.resourceId }, "audit");
}

export type AuditEntry = {
  id: string;
  occurredAt: Date;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  resourceType: string | null;
  resourceId: string | null;
  ip: string | null;
  userAgent: string | null;
  metadata: Prisma.JsonValue;
};

export type AuditPage = { entries: AuditEntry[]; total: number; page: number; pageSize: number; pageCount: number };

// Filter days are calendar days in São Paulo, as the page shows them.
function startOfDay(day: string): Date {
  const offset = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(new Date(`${day}T12:00:00Z`))
    .find((part) => part.type === "timeZoneName")
    ?.value.replace("GMT", "");
  return new Date(`${day}T00:00:00${offset || "Z"}`);
}

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

export async function findAuditEntries(filters: TAuditFilters, pageSize = auditPageSize): Promise<AuditPage> {
  const where: Prisma.AuditLogWhereInput = {
    action: filters.action,
    actorEmail: filters.actor ? { contains: filters.actor, mode: "insensitive" } : undefined,
    resourceType: filters.resourceType,
    resourceId: filters.resourceId,
    occurredAt:
      filters.from || filters.to
        ? { gte: filters.from ? startOfDay(filters.from) : undefined, lt: filters.to ? startOfDay(nextDay(filters.to)) : undefined }
        : undefined,
  };
  const [total, entries] = await Promise.all([
    db.auditLog.count({ where }),
    db.auditLog.findMany({
      where,
      orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
      skip: (filters.page - 1) * pageSize,
      take: pageSize,
    }),
  ]);
  return { entries, total, page: filters.page, pageSize, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}
