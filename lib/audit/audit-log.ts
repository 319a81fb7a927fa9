import "server-only";
import { db } from "@/lib/db/client";
import { periodBounds } from "@/lib/format/period";
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
  log.debug(
    { action: input.action, actorId: input.actor?.id, resourceType: input.resourceType, resourceId: input.resourceId },
    "audit",
  );
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

export async function findAuditEntries(filters: TAuditFilters, pageSize = auditPageSize): Promise<AuditPage> {
  const where: Prisma.AuditLogWhereInput = {
    action: filters.action,
    actorEmail: filters.actor ? { contains: filters.actor, mode: "insensitive" } : undefined,
    resourceType: filters.resourceType,
    resourceId: filters.resourceId,
    // Filter days are calendar days in São Paulo, as the page shows them.
    occurredAt: filters.from || filters.to ? periodBounds(filters) : undefined,
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
