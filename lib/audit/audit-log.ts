import "server-only";
import { db } from "@/lib/db/client";
import { readDb } from "@/lib/db/read-replica";
import type { Prisma } from "@/lib/generated/prisma/client";
import { periodBounds } from "@/lib/list/period";
import { findListPage, type TListPage } from "@/lib/list/query";
import { defineListSpec } from "@/lib/list/spec";
import { log } from "@/lib/log";
import type { TAuditAction } from "./audit-actions";
import { auditPageSize, type TAuditFilters, ZAuditFilters } from "./schemas";

export type TAuditActor = { id: string | null; email: string } | null;

export type TChangeContext = { actor: TAuditActor; ip?: string | null; userAgent?: string | null };

export function auditFieldsOf(context: TChangeContext, resourceType: string, resourceId: string) {
  return { actor: context.actor, resourceType, resourceId, ip: context.ip, userAgent: context.userAgent };
}

export type TRecordAuditInput = {
  actor: TAuditActor;
  action: TAuditAction;
  resourceType?: string;
  resourceId?: string;
  ip?: string | null;
  userAgent?: string | null;
  metadata?: Prisma.InputJsonObject;
};

type AuditWriter = Pick<Prisma.TransactionClient, "auditLog">;

/** The row recordAudit writes, for a caller that writes it in its own statement (then logAudited). */
export function auditRowOf(input: TRecordAuditInput) {
  return {
    actorId: input.actor?.id ?? null,
    actorEmail: input.actor?.email ?? null,
    action: input.action,
    resourceType: input.resourceType ?? null,
    resourceId: input.resourceId ?? null,
    ip: input.ip ?? null,
    userAgent: input.userAgent?.slice(0, 500) ?? null,
    metadata: input.metadata,
  };
}

export function logAudited(input: TRecordAuditInput): void {
  log.debug(
    { action: input.action, actorId: input.actor?.id, resourceType: input.resourceType, resourceId: input.resourceId },
    "audit",
  );
}

// Pass the transaction client when the change and its entry must stand or fall together.
export async function recordAudit(input: TRecordAuditInput, client: AuditWriter = db): Promise<void> {
  await client.auditLog.create({ data: auditRowOf(input) });
  logAudited(input);
}

export type TAuditEntry = {
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

// A substring match cannot use an index; the actors are few, so this walks the distinct e-mails along their index
// (one probe per actor) and the list then filters by equality.
async function actorEmailsContaining(text: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ email: string }[]>`
    WITH RECURSIVE actors(email) AS (
      (SELECT "actorEmail" FROM "AuditLog" WHERE "actorEmail" IS NOT NULL ORDER BY "actorEmail" LIMIT 1)
      UNION ALL
      SELECT (SELECT "actorEmail" FROM "AuditLog" WHERE "actorEmail" > actors.email ORDER BY "actorEmail" LIMIT 1)
        FROM actors WHERE actors.email IS NOT NULL
    )
    SELECT email FROM actors WHERE email IS NOT NULL AND strpos(lower(email), lower(${text})) > 0`;
  return rows.map((row) => row.email);
}

async function auditListWhere(filters: Omit<TAuditFilters, "page" | "cursor">) {
  const where: Prisma.AuditLogWhereInput = {
    action: filters.action,
    actorEmail: filters.actor ? { in: await actorEmailsContaining(filters.actor) } : undefined,
    resourceType: filters.resourceType,
    resourceId: filters.resourceId,
    // Filter days are calendar days in São Paulo, as the page shows them.
    occurredAt: filters.from || filters.to ? periodBounds(filters) : undefined,
  };
  return where;
}

export const auditList = defineListSpec({
  schema: ZAuditFilters,
  where: auditListWhere,
  select: {
    id: true,
    occurredAt: true,
    actorId: true,
    actorEmail: true,
    action: true,
    resourceType: true,
    resourceId: true,
    ip: true,
    userAgent: true,
    metadata: true,
  } satisfies Prisma.AuditLogSelect,
  field: "occurredAt",
  tieBreaker: "id",
});

export async function findAuditEntries(
  filters: TAuditFilters,
  pageSize = auditPageSize,
): Promise<TListPage<TAuditEntry>> {
  const reader = await readDb();
  const where = await auditListWhere(filters);
  return findListPage(
    { page: filters.page, pageSize, cursor: filters.cursor },
    {
      // Along the date index, so the count stops at `take` rows (Prisma orders a bounded count by the key).
      count: (take) => reader.auditLog.count({ where, take, orderBy: { occurredAt: "desc" } }),
      keyset: {
        sort: "occurredAt",
        order: "desc",
        field: "occurredAt",
        tieBreaker: "id",
        cursorOf: (row) => [row.occurredAt, row.id],
      },
      findMany: (window, keyset) => {
        const order = keyset?.order ?? "desc";
        return reader.auditLog.findMany({
          where: keyset ? { AND: [where, keyset.where as Prisma.AuditLogWhereInput] } : where,
          select: auditList.select,
          orderBy: [{ occurredAt: order }, { id: order }],
          ...window,
        });
      },
    },
  );
}
