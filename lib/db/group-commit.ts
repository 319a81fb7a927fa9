// Calls arriving while a batch runs share the next statement, sent before that batch's callers go on: round trips cost.

export type TGroupCommitOptions<TItem, TResult> = {
  /** One call per batch, one result per item in the batch's order; a throw rejects every item of the batch. */
  run: (items: TItem[]) => Promise<TResult[]>;
  maxItems: number;
  /** Items with the same key never share a batch (one statement may not write a row twice). */
  keyOf?: (item: TItem) => string;
  /** With bytesOf: a batch holds at most this many bytes, or one item of any size. */
  maxBytes?: number;
  bytesOf?: (item: TItem) => number;
  maxRunning?: number;
  onError?: (error: unknown, items: TItem[]) => void;
};

type TQueued<TItem, TResult> = {
  item: TItem;
  resolve: (result: TResult) => void;
  reject: (error: unknown) => void;
};

export function createGroupCommit<TItem, TResult>(
  options: TGroupCommitOptions<TItem, TResult>,
): (item: TItem) => Promise<TResult> {
  const { run, maxItems, keyOf, onError } = options;
  const { maxBytes = Number.POSITIVE_INFINITY, bytesOf = () => 0, maxRunning = 1 } = options;
  const queue: TQueued<TItem, TResult>[] = [];
  let running = 0;

  function takeBatch(): TQueued<TItem, TResult>[] {
    const batch: TQueued<TItem, TResult>[] = [];
    const keys = new Set<string>();
    let bytes = 0;
    for (let index = 0; index < queue.length && batch.length < maxItems; ) {
      const queued = queue[index]!;
      const key = keyOf?.(queued.item);
      const itemBytes = bytesOf(queued.item);
      if ((key !== undefined && keys.has(key)) || (batch.length > 0 && bytes + itemBytes > maxBytes)) {
        index += 1;
        continue;
      }
      if (key !== undefined) keys.add(key);
      bytes += itemBytes;
      batch.push(queued);
      queue.splice(index, 1);
    }
    return batch;
  }

  async function runBatch(batch: TQueued<TItem, TResult>[]): Promise<void> {
    let outcome: { results: TResult[] } | { error: unknown };
    try {
      const results = await run(batch.map((queued) => queued.item));
      if (results.length !== batch.length)
        throw new Error(`group commit: ${results.length} results for ${batch.length}`);
      outcome = { results };
    } catch (error) {
      outcome = { error };
    }
    running -= 1;
    pump();
    if ("error" in outcome) {
      onError?.(
        outcome.error,
        batch.map((queued) => queued.item),
      );
      for (const queued of batch) queued.reject(outcome.error);
    } else for (const [index, queued] of batch.entries()) queued.resolve(outcome.results[index]!);
  }

  function pump(): void {
    while (running < maxRunning && queue.length > 0) {
      running += 1;
      void runBatch(takeBatch());
    }
  }

  return (item) =>
    new Promise<TResult>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      pump();
    });
}
