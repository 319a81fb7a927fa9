import type { TReconciledChangeKind } from "@/lib/resources/registry";
import { readOrHoldUnknown, type TDriftKind } from "./drift";

/** `from` is null when the mirror lacked it. */
export type THealedItem = { kind: TReconciledChangeKind; id: string; from: string | null; to: string };

export type TReconcileRun = {
  // Items each pass read, by change kind; the runner counts them, a pass never does.
  scanned: Record<string, number>;
  healed: THealedItem[];
  errors: string[];
  // Keys already handled in this run (e.g. a charge read in full), so two passes do not repeat a read.
  visited: Set<string>;
};

type TReconcileQuery = { initialDate: string; endDate: string; page: number; size: number; sort: string };

export type TReconcilePass<I = unknown> = {
  // `coveredFrom`: how far back a walk cut short read (the card list's page cap); older rows are not unlisted.
  list: (query: TReconcileQuery) => Promise<{ content: I[]; last: boolean; coveredFrom?: Date }>;
  // Errors of one item go to `run.errors` and the pass goes on; a thrown error ends this pass only.
  heal: (items: I[], run: TReconcileRun) => Promise<void>;
  // The mirrored rows the whole list did not name, and a few older than the window each run: each is read by id, and a
  // 404 held as drift.
  unlisted?: {
    idOf: (item: I) => string;
    check: (id: string, run: TReconcileRun) => Promise<void>;
    table: TMirrorTable;
  };
};

/** A mirror table by its SQL names: its id and the creation instant the window bounds. */
export type TMirrorTable = { name: string; id: string; createdAt: string };

/** `unlisted` for a kind whose mirror keeps the gateway's creationDate: found, `read` heals; a 404 is held. */
export function unlistedByCreationDate<I>(
  kind: TDriftKind,
  steps: {
    idOf: (item: I) => string;
    read: (id: string, run: TReconcileRun) => Promise<unknown>;
    mirrored: (id: string) => Promise<Record<string, unknown> | null>;
    table: TMirrorTable;
  },
): NonNullable<TReconcilePass<I>["unlisted"]> {
  return {
    idOf: steps.idOf,
    table: steps.table,
    check: (id, run) =>
      readOrHoldUnknown(kind, id, { read: () => steps.read(id, run), mirrored: () => steps.mirrored(id) }),
  };
}

export function defineReconcilePass<I>(pass: TReconcilePass<I>): TReconcilePass {
  return pass as unknown as TReconcilePass;
}
