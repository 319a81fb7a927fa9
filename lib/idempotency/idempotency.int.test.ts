import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { db, disconnectDb, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { runIdempotent, type TIdempotentAttempt } from "./idempotency";

const scope = "test_scope";

describe("runIdempotent", () => {
  beforeEach(() => db.idempotencyKey.deleteMany({ where: { scope } }));
  afterAll(() => disconnectDb());

  it("calls upstream once for concurrent claims of one key, and replays the result afterwards", async () => {
    const key = randomUUID();
    let calls = 0;
    const run = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return "result-1";
    };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => runIdempotent({ scope, key, request: { amountCents: 100 }, run })),
    );
    expect(calls).toBe(1);
    expect(results.map((result) => result.resultId)).toEqual(Array(5).fill("result-1"));
    expect(results.filter((result) => !result.isReplay)).toHaveLength(1);
    expect(await runIdempotent({ scope, key, request: { amountCents: 100 }, run })).toEqual({
      resultId: "result-1",
      isReplay: true,
    });
    expect(calls).toBe(1);
  });

  it("marks the key done in the transaction that records the result", async () => {
    const key = randomUUID();
    await runIdempotent({
      scope,
      key,
      request: {},
      run: (attempt) =>
        inTransaction(async (tx) => {
          await attempt.succeed(tx, "in-tx");
          return "in-tx";
        }),
    });
    expect(await db.idempotencyKey.findUniqueOrThrow({ where: { scope_key: { scope, key } } })).toMatchObject({
      status: "SUCCEEDED",
      resultId: "in-tx",
    });
  });

  it("refuses the same key with another request", async () => {
    const key = randomUUID();
    await runIdempotent({ scope, key, request: { amountCents: 100, note: "a" }, run: async () => "x" });
    // Key order does not matter; the content does.
    await expect(
      runIdempotent({ scope, key, request: { note: "a", amountCents: 100 }, run: async () => "y" }),
    ).resolves.toEqual({ resultId: "x", isReplay: true });
    await expect(
      runIdempotent({ scope, key, request: { amountCents: 200, note: "a" }, run: async () => "y" }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("answers conflict when the first request is still running past the wait", async () => {
    const key = randomUUID();
    let release: () => void = () => {};
    const first = runIdempotent({
      scope,
      key,
      request: {},
      run: () => new Promise<string>((resolve) => (release = () => resolve("slow"))),
    });
    await expect.poll(() => db.idempotencyKey.count({ where: { scope, key } })).toBe(1);
    const error = await runIdempotent({ scope, key, request: {}, waitMs: 300, run: async () => "second" }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "CONFLICT" });
    release();
    expect(await first).toEqual({ resultId: "slow", isReplay: false });
  });

  it("lets a key be used again at once after a failure that certainly changed nothing", async () => {
    const key = randomUUID();
    const refused = new Error("400 from upstream");
    await expect(
      runIdempotent({
        scope,
        key,
        request: { amountCents: 1 },
        isCertainlyNotApplied: (error) => error === refused,
        run: async () => {
          throw refused;
        },
      }),
    ).rejects.toBe(refused);
    // The corrected request with the same key goes through, as a first attempt.
    const attempts: TIdempotentAttempt[] = [];
    const result = await runIdempotent({
      scope,
      key,
      request: { amountCents: 2 },
      run: async (attempt) => {
        attempts.push(attempt);
        return "fixed";
      },
    });
    expect(result).toEqual({ resultId: "fixed", isReplay: false });
    expect(attempts[0]!.isRecovery).toBe(false);
  });

  it("recovers a key left PENDING by a crashed process once its lease ran out", async () => {
    const key = randomUUID();
    // What a process that died after claiming the key leaves behind.
    await db.idempotencyKey.create({
      data: {
        scope,
        key,
        fingerprint: null,
        lockedUntil: new Date(Date.now() - 1),
        createdAt: new Date(Date.now() - 5000),
      },
    });
    const attempts: TIdempotentAttempt[] = [];
    const result = await runIdempotent({
      scope,
      key,
      request: { amountCents: 1 },
      run: async (attempt) => {
        attempts.push(attempt);
        return attempt.isRecovery ? "found-upstream" : "created-again";
      },
    });
    expect(result).toEqual({ resultId: "found-upstream", isReplay: false });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.firstClaimedAt.getTime()).toBeLessThan(Date.now() - 4000);
    expect(await db.idempotencyKey.findUniqueOrThrow({ where: { scope_key: { scope, key } } })).toMatchObject({
      status: "SUCCEEDED",
      attempts: 2,
    });
  });

  it("leaves an unclear failure to the next attempt as a recovery", async () => {
    const key = randomUUID();
    await expect(
      runIdempotent({
        scope,
        key,
        request: {},
        run: async () => {
          throw new Error("timeout reading the answer");
        },
      }),
    ).rejects.toThrow("timeout");
    const result = await runIdempotent({
      scope,
      key,
      request: {},
      run: async (attempt) => (attempt.isRecovery ? "recovered" : "fresh"),
    });
    expect(result.resultId).toBe("recovered");
  });
});
