import "server-only";
import { randomUUID } from "node:crypto";
import { auditRowOf, logAudited, type TRecordAuditInput } from "@/lib/audit/audit-log";
import { transactionLockSql } from "@/lib/db/locks";
import { runSql } from "@/lib/db/sql";
import { changeChannel, changePayload, type TChange } from "@/lib/events/bus";
import { succeededKeySql } from "@/lib/idempotency/idempotency";

// One statement (docs/architecture.md): each write joins "created", so a row already mirrored writes nothing. ISO
// timestamps in the JSON are stored as their UTC wall time, as Prisma stores them; every NOT NULL column must be in
// the row (jsonb_populate_record applies no defaults).

export type TCreatedRowTable = {
  table: string;
  idColumn: string;
  children?: Array<{ table: string; onConflict?: string }>;
};

const fixedParameters = 8;

function recordCreatedSql({ table, idColumn, children = [] }: TCreatedRowTable): string {
  const childWrites = children.map(
    (child, index) => `, "child${index}" AS (
  INSERT INTO "${child.table}"
  SELECT r.* FROM jsonb_populate_recordset(NULL::"${child.table}", $${fixedParameters + index + 1}::jsonb) AS r, "created"
  ${child.onConflict ? `ON CONFLICT ${child.onConflict}` : ""}
  RETURNING 1
)`,
  );
  return `
WITH "lock" AS (
  SELECT ${transactionLockSql.byText("$1::text")}
), "created" AS (
  INSERT INTO "${table}"
  SELECT r.* FROM jsonb_populate_record(NULL::"${table}", $2::jsonb) AS r, "lock"
  ON CONFLICT ("${idColumn}") DO NOTHING
  RETURNING "${idColumn}" AS "id"
)${childWrites.join("")}, "key" AS (
  ${succeededKeySql({ scope: "$3", key: "$4", now: "$5", resultId: '"created"."id"', from: '"created"' })}
  RETURNING 1
), "audit" AS (
  INSERT INTO "AuditLog"
  SELECT r.* FROM jsonb_populate_record(NULL::"AuditLog", $6::jsonb) AS r, "created"
  RETURNING 1
), "notify" AS (
  SELECT pg_notify($7::text, $8::text) FROM "created"
)
SELECT (SELECT count(*) FROM "created")::int AS "created", (SELECT count(*) FROM "notify")::int AS "notified"`;
}

const sqlByTable = new Map<string, string>();

export type TCreatedRecord = {
  lockKey: string;
  row: Record<string, unknown>;
  /** One array of rows per child table, in the table's order. */
  children?: unknown[][];
  idempotencyKey: { scope: string; key: string };
  audit: TRecordAuditInput;
  change: TChange;
  now: Date;
};

/** False when the mirror already had the row: nothing was written. */
export async function recordCreated(table: TCreatedRowTable, created: TCreatedRecord): Promise<boolean> {
  let sql = sqlByTable.get(table.table);
  if (!sql) {
    sql = recordCreatedSql(table);
    sqlByTable.set(table.table, sql);
  }
  const [result] = await runSql<{ created: number }>(sql, [
    created.lockKey,
    JSON.stringify({ ...created.row, createdAt: created.now, updatedAt: created.now }),
    created.idempotencyKey.scope,
    created.idempotencyKey.key,
    created.now.toISOString(),
    JSON.stringify({ id: randomUUID(), occurredAt: created.now, ...auditRowOf(created.audit) }),
    changeChannel,
    changePayload(created.change),
    ...(created.children ?? []).map((rows) => JSON.stringify(rows)),
  ]);
  if (!result || result.created === 0) return false;
  logAudited(created.audit);
  return true;
}
