import "server-only";
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { db, type TTransactionClient } from "@/lib/db/client";
import { runSql } from "@/lib/db/sql";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

// Call it outside any transaction: `run` opens its own (docs/idempotency.md).

// Longer than one upstream call can take (connect 5 s + response 15 s): an older PENDING key's process died.
const defaultLeaseMs = 60_000;
export const defaultWaitMs = 10_000;
const pollMs = 100;

export type TIdempotentAttempt = {
  scope: string;
  key: string;
  // Took over a key left PENDING: the resource may exist upstream already, so look for it before creating.
  isRecovery: boolean;
  firstClaimedAt: Date;
  /** What `readBeside` read in the claim's statement (undefined without it). */
  beside: unknown;
  succeed: (tx: TTransactionClient, resultId: string) => Promise<void>;
  /** The caller's own statement wrote the result as `succeed` does (succeededKeySql): nothing is written again. */
  markSucceeded: () => void;
};

export type TIdempotentRequest = {
  scope: string;
  key: string;
  request: unknown;
  actorId?: string | null;
  leaseMs?: number;
  waitMs?: number;
  // A read the attempt needs, as one SQL expression over placeholders it is given: it rides the claim's statement.
  readBeside?: { sql: (placeholders: string[]) => string; values: unknown[] };
  // True when `error` proves nothing happened upstream: the key is FAILED and may be reused at once.
  isCertainlyNotApplied?: (error: unknown) => boolean;
  run: (attempt: TIdempotentAttempt) => Promise<string>;
};

export type TIdempotentResult = { resultId: string; isReplay: boolean };

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function requestFingerprint(request: unknown): string {
  return createHash("sha256")
    .update(canonicalJson(request ?? null))
    .digest("hex");
}

type Claim =
  | { kind: "claimed"; attempt: Omit<TIdempotentAttempt, "succeed" | "markSucceeded"> }
  | { kind: "done"; resultId: string }
  | { kind: "busy" };

// Raw SQL: every payment claims a key, and a conflict answered as a row count costs no thrown error.
const claimInsertSql = `
INSERT INTO "IdempotencyKey"
  ("scope", "key", "fingerprint", "status", "attempts", "lockedUntil", "createdById", "createdAt", "updatedAt")
VALUES ($1::text, $2::text, $3::text, 'PENDING', 1, ($4::timestamptz AT TIME ZONE 'UTC'), $5::uuid,
  ($6::timestamptz AT TIME ZONE 'UTC'), ($6::timestamptz AT TIME ZONE 'UTC'))
ON CONFLICT ("scope", "key") DO NOTHING
RETURNING 1`;
const claimParameters = 6;

type TReadBeside = NonNullable<TIdempotentRequest["readBeside"]>;
const claimSqlByBesideSql = new Map<TReadBeside["sql"] | undefined, string>();

function claimSql(readBeside: TIdempotentRequest["readBeside"]): string {
  let sql = claimSqlByBesideSql.get(readBeside?.sql);
  if (!sql) {
    const placeholders = (readBeside?.values ?? []).map((_, index) => `$${claimParameters + index + 1}`);
    const beside = readBeside ? readBeside.sql(placeholders) : "NULL::json";
    sql = `WITH "claimed" AS (${claimInsertSql})\nSELECT EXISTS (SELECT 1 FROM "claimed") AS "claimed", ${beside} AS "beside"`;
    claimSqlByBesideSql.set(readBeside?.sql, sql);
  }
  return sql;
}

/** `succeed`'s UPDATE for a caller's single statement: SQL expressions for the values, `from` joins the result's row. */
export function succeededKeySql(sql: {
  scope: string;
  key: string;
  now: string;
  resultId: string;
  from: string;
}): string {
  const now = `(${sql.now}::timestamptz AT TIME ZONE 'UTC')`;
  return `UPDATE "IdempotencyKey" SET "status" = 'SUCCEEDED', "resultId" = ${sql.resultId}, "error" = NULL,
    "lockedUntil" = ${now}, "updatedAt" = ${now}
  FROM ${sql.from} WHERE "scope" = ${sql.scope}::text AND "key" = ${sql.key}::text`;
}

async function claim(input: TIdempotentRequest, fingerprint: string): Promise<Claim> {
  const { scope, key } = input;
  const lockedUntil = () => new Date(Date.now() + (input.leaseMs ?? defaultLeaseMs));
  const now = new Date();
  const [claimed] = await runSql<{ claimed: boolean; beside: unknown }>(claimSql(input.readBeside), [
    scope,
    key,
    fingerprint,
    lockedUntil().toISOString(),
    input.actorId ?? null,
    now.toISOString(),
    ...(input.readBeside?.values ?? []),
  ]);
  const beside = claimed?.beside ?? undefined;
  if (claimed?.claimed)
    return { kind: "claimed", attempt: { scope, key, isRecovery: false, firstClaimedAt: now, beside } };
  const row = await db.idempotencyKey.findUnique({ where: { scope_key: { scope, key } } });
  if (!row) return claim(input, fingerprint);
  // A FAILED key changed nothing upstream: it may carry a corrected request (a form fixed after a refusal).
  if (row.status !== "FAILED" && row.fingerprint !== null && row.fingerprint !== fingerprint) {
    throw new AppError("CONFLICT", "errors.idempotency.reusedKey");
  }
  if (row.status === "SUCCEEDED" && row.resultId) return { kind: "done", resultId: row.resultId };
  if (row.status === "PENDING" && row.lockedUntil.getTime() > Date.now()) return { kind: "busy" };
  // FAILED or a lease that ran out: take it over, unless another attempt did first (`attempts` is the version).
  const { count } = await db.idempotencyKey.updateMany({
    where: { scope, key, attempts: row.attempts },
    data: { status: "PENDING", lockedUntil: lockedUntil(), attempts: row.attempts + 1, error: null, fingerprint },
  });
  if (count === 0) return { kind: "busy" };
  return {
    kind: "claimed",
    attempt: { scope, key, isRecovery: row.status === "PENDING", firstClaimedAt: row.createdAt, beside },
  };
}

async function markSucceeded(client: TTransactionClient, scope: string, key: string, resultId: string): Promise<void> {
  await client.idempotencyKey.update({
    where: { scope_key: { scope, key } },
    data: { status: "SUCCEEDED", resultId, error: null, lockedUntil: new Date() },
  });
}

export async function runIdempotent(input: TIdempotentRequest): Promise<TIdempotentResult> {
  const fingerprint = requestFingerprint(input.request);
  const deadline = Date.now() + (input.waitMs ?? defaultWaitMs);
  let claimed: Claim = await claim(input, fingerprint);
  while (claimed.kind === "busy") {
    if (Date.now() >= deadline) {
      throw new AppError("CONFLICT", "errors.idempotency.inProgress");
    }
    await sleep(pollMs);
    claimed = await claim(input, fingerprint);
  }
  if (claimed.kind === "done") return { resultId: claimed.resultId, isReplay: true };

  const { scope, key } = claimed.attempt;
  let isSucceeded = false;
  const attempt: TIdempotentAttempt = {
    ...claimed.attempt,
    succeed: async (tx, resultId) => {
      await markSucceeded(tx, scope, key, resultId);
      isSucceeded = true;
    },
    markSucceeded: () => {
      isSucceeded = true;
    },
  };
  let resultId: string;
  try {
    resultId = await input.run(attempt);
  } catch (error) {
    const isFailed = input.isCertainlyNotApplied?.(error) ?? false;
    await db.idempotencyKey
      .update({
        where: { scope_key: { scope, key } },
        data: { status: isFailed ? "FAILED" : "PENDING", lockedUntil: new Date(), error: String(error).slice(0, 500) },
      })
      .catch((writeError: unknown) =>
        log.error({ err: writeError, scope, key }, "idempotency: the failed attempt could not be recorded"),
      );
    throw error;
  }
  if (!isSucceeded) await markSucceeded(db, scope, key, resultId);
  return { resultId, isReplay: false };
}

export async function findClaimedResultIds(
  scope: string,
  resultIds: string[],
  client: Pick<TTransactionClient, "idempotencyKey"> = db,
): Promise<Set<string>> {
  if (resultIds.length === 0) return new Set();
  const rows = await client.idempotencyKey.findMany({
    where: { scope, resultId: { in: resultIds } },
    select: { resultId: true },
  });
  return new Set(rows.flatMap((row) => (row.resultId ? [row.resultId] : [])));
}
