import "server-only";
import { takeTransactionLock } from "@/lib/db/locks";
import { changedFields, type TMirrorClient, type TMirrorOutcome } from "@/lib/db/mirror-write";
import { publishChange, type TChange } from "@/lib/events/bus";
import { recordMirrorDrift, type TDrift, type TMirrorAuthority } from "@/lib/reconcile/drift";

// Every mirror's write of a gateway snapshot, in one order of steps so what is locked, read and written is the same for all.

/** How a snapshot compares with the mirrored row: "backward" is refused unless a second read confirmed it, "stale" always. */
type TSnapshotMove = "accept" | "backward" | "stale";

type TMirrorUpdate<TData> = Partial<TData> & { syncedAt: Date; updatedAt?: Date };

type TMirrorRowWrite<TRow, TData, TCreated> = {
  /** Taken before the row is read, until the transaction ends (lib/db/locks.ts). */
  lockKey?: string;
  syncedAt: Date;
  find: () => Promise<TRow | null>;
  /** Writes the row the snapshot starts; null when the snapshot cannot start one (then nothing is published). */
  create: () => Promise<TCreated>;
  move: (existing: TRow) => TSnapshotMove | Promise<TSnapshotMove>;
  /** Set for an authoritative single-resource read (lib/reconcile/drift.ts). */
  authority?: TMirrorAuthority;
  /** What an authoritative write records as corrected, or null when it only heals (a forward move). */
  drift?: (existing: TRow, move: TSnapshotMove) => Omit<TDrift, "source"> | null;
  data: (existing: TRow, move: TSnapshotMove) => TData;
  /** What a refused snapshot still writes; without it a refused snapshot writes nothing. */
  staleData?: (existing: TRow) => Partial<TData>;
  /** Rows belonging to this one, written after the comparison for an accepted snapshot; true when any changed. */
  writeRelated?: (existing: TRow) => Promise<boolean>;
  update: (data: TMirrorUpdate<TData>, existing: TRow) => Promise<TRow>;
  publish?: TChange[];
};

type TMirrorRowResult<TRow, TCreated> =
  | { outcome: "created"; row: NonNullable<TCreated> }
  | { outcome: Exclude<TMirrorOutcome, "created">; row: TRow }
  | (null extends TCreated ? null : never);

async function publishAll(tx: TMirrorClient, changes: TChange[] | undefined): Promise<void> {
  for (const change of changes ?? []) await publishChange(change, tx);
}

export async function upsertMirrorRow<
  TRow extends Record<string, unknown> & { updatedAt: Date },
  TData extends Record<string, unknown>,
  TCreated,
>(tx: TMirrorClient, write: TMirrorRowWrite<TRow, TData, TCreated>): Promise<TMirrorRowResult<TRow, TCreated>> {
  type TResult = TMirrorRowResult<TRow, TCreated>;
  if (write.lockKey !== undefined) await takeTransactionLock(tx, write.lockKey);
  const existing = await write.find();
  if (!existing) {
    const created = await write.create();
    if (created === null) return null as TResult;
    await publishAll(tx, write.publish);
    return { outcome: "created", row: created } as TResult;
  }
  const move = await write.move(existing);
  const authority = write.authority;
  const isStale = move === "stale" || (move === "backward" && !authority?.isBackwardConfirmed);
  if (isStale && !write.staleData) return { outcome: "stale", row: existing } as TResult;
  if (!isStale && authority && !authority.isReviewed) {
    const drift = write.drift?.(existing, move);
    if (drift) await recordMirrorDrift(tx, { ...drift, source: authority.source });
    if (drift?.isHeldForReview) return { outcome: "stale", row: existing } as TResult;
  }
  const changes = changedFields(existing, isStale ? write.staleData!(existing) : write.data(existing, move));
  const isRelatedChanged = !isStale && write.writeRelated ? await write.writeRelated(existing) : false;
  const isChanged = Object.keys(changes).length > 0 || isRelatedChanged;
  const row = await write.update(
    // updatedAt moves only when the data does.
    {
      ...changes,
      syncedAt: write.syncedAt,
      ...(isChanged ? {} : { updatedAt: existing.updatedAt }),
    } as TMirrorUpdate<TData>,
    existing,
  );
  if (isStale) return { outcome: "stale", row } as TResult;
  if (isChanged) await publishAll(tx, write.publish);
  return { outcome: isChanged ? "updated" : "unchanged", row } as TResult;
}
