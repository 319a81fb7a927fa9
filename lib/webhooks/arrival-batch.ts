import "server-only";
import { createGroupCommit } from "@/lib/db/group-commit";
import { transactionLockSql } from "@/lib/db/locks";
import { inSqlTransaction, type TSqlRunner } from "@/lib/db/sql";
import type { TChange } from "@/lib/events/bus";
import { log } from "@/lib/log";
import { withSpan } from "@/lib/telemetry/tracing";
import { bearsOut, identityColumns } from "./apply";
import type { TEventIdentity, TParsedBody } from "./event-identity";
import type { TAnyEventKind, TChangeRecord, TEffect } from "./event-kind";

type TFastPathBody = {
  kind: TAnyEventKind;
  data: unknown;
  identity: TEventIdentity;
  fastPath: NonNullable<TAnyEventKind["fastPath"]>;
};

function fastPathOf(body: TParsedBody): TFastPathBody | null {
  if (!body.isUsable) return null;
  const { kind, data } = body.parsed;
  return kind.fastPath?.accepts(data) ? { kind, data, identity: body.identity, fastPath: kind.fastPath } : null;
}

// The fast path writes the gateway's copy only in the announced state; anything else takes the general path.
async function gatewayCopyInSameState(fast: TFastPathBody): Promise<unknown | null> {
  if (!fast.kind.confirm) return fast.data;
  try {
    const copy = await fast.kind.confirm.readUpstream(fast.data);
    if (copy === null || !fast.fastPath.accepts(copy)) return null;
    return bearsOut(fast.kind, copy, fast.data) ? copy : null;
  } catch (error) {
    log.warn({ err: error, eventKey: fast.identity.eventKey }, "webhook delivery: the gateway read failed");
    return null;
  }
}

// Per arrival: effect claims then resource locks in key order (same in every batch: no deadlock across instances).
const claimArrivalsSql = `
WITH "items" AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x("index" int, "rowId" uuid, "deliveryId" text, "eventKey" text,
    "lockKey" text)
), "done" AS (
  -- Lateral with a limit: one index lookup per item, whatever the planner guesses of the JSON's length.
  SELECT i."index" FROM "items" AS i CROSS JOIN LATERAL (
    SELECT 1 FROM "WebhookDelivery" AS d
    WHERE d."deliveryId" = i."deliveryId" AND d."signatureValid" AND d."outcome" IN ('APPLIED', 'DUPLICATE')
    LIMIT 1
  ) AS d
), "claimed" AS (
  INSERT INTO "WebhookEffect" ("eventKey", "firstDeliveryId", "appliedAt")
  SELECT "eventKey", "rowId", now() FROM "items" WHERE "index" NOT IN (SELECT "index" FROM "done")
  ORDER BY "eventKey", "index"
  ON CONFLICT ("eventKey") DO NOTHING
  RETURNING "firstDeliveryId"
), "locked" AS (
  SELECT ${transactionLockSql.byText('k."lockKey"')} FROM (
    SELECT DISTINCT i."lockKey" FROM "items" AS i JOIN "claimed" AS c ON c."firstDeliveryId" = i."rowId"
    ORDER BY i."lockKey"
  ) AS k
)
SELECT i."index", EXISTS (SELECT 1 FROM "done" AS d WHERE d."index" = i."index") AS "isDeliveryDone",
  EXISTS (SELECT 1 FROM "claimed" AS c WHERE c."firstDeliveryId" = i."rowId") AS "isClaimed",
  (SELECT count(*) FROM "locked")::int AS "locks"
FROM "items" AS i ORDER BY i."index"`;

// Claims refused as a move back are given back: stored PENDING, they take the general path (second read).
const releaseEffectsSql = `
DELETE FROM "WebhookEffect" WHERE "eventKey" IN (SELECT jsonb_array_elements_text($1::jsonb))`;

export type TArrivalRecord = {
  outcome: "APPLIED" | "DUPLICATE" | "PENDING";
  error: string | null;
  eventKey: string | null;
  resourceType: string | null;
  resourceId: string | null;
  changes: TChangeRecord[] | null;
  appliedAt: Date | null;
  applyAttempts: number;
  notify: TChange[];
};

export type TArrivalStore<TArrival> = (
  run: TSqlRunner,
  rows: Array<{ arrival: TArrival; record: TArrivalRecord }>,
) => Promise<void>;

export type TArrivalOf = { id: string; deliveryId: string; parsed: TParsedBody; bodyBytes: number };

type TQueuedArrival<TArrival extends TArrivalOf> = {
  arrival: TArrival;
  fast: TFastPathBody;
  lockKey: string;
};

// What a delivery records when nothing of it was applied (the receiver's stores share it).
export const nothingApplied = {
  error: null,
  eventKey: null,
  resourceType: null,
  resourceId: null,
  changes: null,
  appliedAt: null,
  applyAttempts: 0,
  notify: [],
} satisfies Omit<TArrivalRecord, "outcome">;

async function applyArrivals<TArrival extends TArrivalOf>(
  run: TSqlRunner,
  batch: TQueuedArrival<TArrival>[],
  store: TArrivalStore<TArrival>,
): Promise<TArrivalRecord["outcome"][]> {
  const claims = await run<{ index: number; isDeliveryDone: boolean; isClaimed: boolean }>(claimArrivalsSql, [
    JSON.stringify(
      batch.map((item, index) => ({
        index,
        rowId: item.arrival.id,
        deliveryId: item.arrival.deliveryId,
        eventKey: item.fast.identity.eventKey,
        lockKey: item.lockKey,
      })),
    ),
  ]);
  const effects = new Map<number, TEffect | null>();
  const claimed = claims.filter((claim) => claim.isClaimed).map((claim) => claim.index);
  const claimedByKind = Map.groupBy(claimed, (index) => batch[index]!.fast.kind);
  for (const [kind, indexes] of claimedByKind) {
    const results = await kind.fastPath!.apply(
      run,
      indexes.map((index) => batch[index]!.fast.data),
    );
    for (const [position, index] of indexes.entries()) effects.set(index, results[position] ?? null);
  }
  const released = [...effects].filter(([, effect]) => effect === null).map(([index]) => index);
  if (released.length > 0)
    await run(releaseEffectsSql, [JSON.stringify(released.map((index) => batch[index]!.fast.identity.eventKey))]);
  const now = new Date();
  const rows = claims.map(({ index, isDeliveryDone, isClaimed }) => {
    const { arrival, fast } = batch[index]!;
    const identity = { ...identityColumns(fast.identity), applyAttempts: 1 };
    const effect = effects.get(index);
    const record: TArrivalRecord = isDeliveryDone
      ? { ...nothingApplied, outcome: "DUPLICATE", error: "delivery id already applied" }
      : !isClaimed
        ? { ...nothingApplied, ...identity, outcome: "DUPLICATE" }
        : effect
          ? { ...identity, outcome: "APPLIED", error: null, ...effect, appliedAt: now }
          : { ...nothingApplied, outcome: "PENDING" };
    return { arrival, record };
  });
  const kinds = rows.flatMap(({ record }) => record.notify.map((change) => change.kind));
  // The store's SQL also sends the live updates (pg_notify), delivered when the batch commits.
  await withSpan("live update publish", { "change.kind": kinds.join(",") }, () => store(run, rows));
  return rows.map(({ record }) => record.outcome);
}

// Group commit for the common event (lib/db/group-commit.ts): claimed, written and stored in ONE transaction; none is
// answered before commit, and two about one resource go in different batches.
const maxArrivalBatch = 64;
const maxArrivalBatchBytes = 1024 * 1024;
// One batch at a time: while it commits, the next one fills. Two measured worse (smaller batches, more CPU each).
const maxCommittingBatches = 1;

export function createArrivalBatcher<TArrival extends TArrivalOf>(store: TArrivalStore<TArrival>) {
  const commit = createGroupCommit<TQueuedArrival<TArrival>, TArrivalRecord["outcome"] | null>({
    maxItems: maxArrivalBatch,
    maxBytes: maxArrivalBatchBytes,
    maxRunning: maxCommittingBatches,
    keyOf: (item) => item.lockKey,
    bytesOf: (item) => item.arrival.bodyBytes,
    run: async (batch) => {
      try {
        return await inSqlTransaction((run) => applyArrivals(run, batch, store));
      } catch (error) {
        log.warn(
          { err: error, deliveryRowIds: batch.map((item) => item.arrival.id) },
          "webhook delivery: applying on arrival failed; storing each delivery first and applying it again",
        );
        return batch.map(() => null);
      }
    },
  });

  // Null (nothing changed): take the general path; PENDING: stored only (the copy would move the mirror back).
  return async function applyOnArrival(arrival: TArrival): Promise<TArrivalRecord["outcome"] | null> {
    const candidate = fastPathOf(arrival.parsed);
    if (!candidate) return null;
    const copy = await gatewayCopyInSameState(candidate);
    if (copy === null) return null;
    const fast = { ...candidate, data: copy };
    return commit({ arrival, fast, lockKey: fast.fastPath.lockKey(copy) });
  };
}
