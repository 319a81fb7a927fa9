import { describe, expect, it } from "vitest";
import { createGroupCommit } from "./group-commit";

type TItem = { id: number; key?: string; bytes?: number };

function recordingBatcher(options: { maxItems?: number; maxBytes?: number; maxRunning?: number; fail?: boolean } = {}) {
  const batches: number[][] = [];
  let release: () => void = () => {};
  let gate = Promise.resolve();
  const commit = createGroupCommit<TItem, string>({
    maxItems: options.maxItems ?? 8,
    maxBytes: options.maxBytes,
    maxRunning: options.maxRunning,
    keyOf: (item) => item.key ?? String(item.id),
    bytesOf: (item) => item.bytes ?? 1,
    run: async (items) => {
      batches.push(items.map((item) => item.id));
      await gate;
      if (options.fail) throw new Error("statement failed");
      return items.map((item) => `done ${item.id}`);
    },
  });
  return {
    commit,
    batches,
    hold: () => {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

describe("group commit", () => {
  it("runs a lone call at once, alone, and answers each caller with its own result", async () => {
    const batcher = recordingBatcher();
    await expect(batcher.commit({ id: 1 })).resolves.toBe("done 1");
    expect(batcher.batches).toEqual([[1]]);
  });

  it("gathers the calls that arrive while a batch runs into the next batch, in arrival order", async () => {
    const batcher = recordingBatcher();
    batcher.hold();
    const first = batcher.commit({ id: 1 });
    const waiting = [2, 3, 4].map((id) => batcher.commit({ id }));
    batcher.release();
    expect(await first).toBe("done 1");
    expect(await Promise.all(waiting)).toEqual(["done 2", "done 3", "done 4"]);
    expect(batcher.batches).toEqual([[1], [2, 3, 4]]);
  });

  it("keeps items with the same key in different batches and respects the item and byte caps", async () => {
    const batcher = recordingBatcher({ maxItems: 3, maxBytes: 10 });
    batcher.hold();
    const first = batcher.commit({ id: 0 });
    const items: TItem[] = [
      { id: 1, key: "same" },
      { id: 2, key: "same" },
      { id: 3 },
      { id: 4 },
      { id: 5, bytes: 9 },
      { id: 6, bytes: 20 },
    ];
    const waiting = items.map((item) => batcher.commit(item));
    batcher.release();
    await Promise.all([first, ...waiting]);
    expect(batcher.batches).toEqual([[0], [1, 3, 4], [2, 5], [6]]);
  });

  it("rejects every item of a failed batch with its error, and the next batch still runs", async () => {
    const failing = recordingBatcher({ fail: true });
    const results = await Promise.allSettled([failing.commit({ id: 1 }), failing.commit({ id: 2 })]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect((results[0] as PromiseRejectedResult).reason).toEqual(new Error("statement failed"));
    expect(failing.batches).toEqual([[1], [2]]);
  });

  it("runs up to maxRunning batches at once", async () => {
    const batcher = recordingBatcher({ maxRunning: 2 });
    batcher.hold();
    const calls = [1, 2, 3, 4].map((id) => batcher.commit({ id }));
    expect(batcher.batches).toEqual([[1], [2]]);
    batcher.release();
    await Promise.all(calls);
    expect(batcher.batches).toEqual([[1], [2], [3, 4]]);
  });

  it("sends the next batch before the finished batch's callers go on, so it runs while they answer", async () => {
    const batcher = recordingBatcher();
    batcher.hold();
    const first = batcher.commit({ id: 1 }).then(() => batcher.batches.map((batch) => [...batch]));
    const waiting = [2, 3].map((id) => batcher.commit({ id }));
    batcher.release();
    expect(await first).toEqual([[1], [2, 3]]);
    await Promise.all(waiting);
  });
});
