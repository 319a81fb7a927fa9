import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { db, inTransaction } from "./client";
import { runSql } from "./sql";

const guardMessage = /global client inside an open transaction/;

// The embedded PGlite database has one connection: before the guard, each of these waited for the
// transaction's timeout (P2028) instead of failing.
describe("the global client inside an open transaction (PGlite)", () => {
  let embedded: { close: () => Promise<void> };

  beforeAll(async () => {
    embedded = await useEmbeddedDefaultDatabase();
  });
  afterAll(() => embedded?.close());

  it("throws at once, and the transaction rolls back", async () => {
    const startedAt = Date.now();
    await expect(
      inTransaction(
        async (tx) => {
          await tx.rateLimitBucket.create({
            data: { key: "guard-test", count: 1, windowStart: new Date(), expiresAt: new Date() },
          });
          await db.user.count();
        },
        { timeout: 20_000 },
      ),
    ).rejects.toThrow(guardMessage);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    expect(await db.rateLimitBucket.count({ where: { key: "guard-test" } })).toBe(0);
  });

  it("covers db.$transaction, nested transactions and raw SQL too", async () => {
    await expect(db.$transaction(async () => db.user.findFirst())).rejects.toThrow(guardMessage);
    await expect(inTransaction(async () => inTransaction(async (tx) => tx.user.count()))).rejects.toThrow(guardMessage);
    await expect(inTransaction(async () => runSql("SELECT 1::int AS one", []))).rejects.toThrow(guardMessage);
  });

  it("lets the transaction client work, and the global client once the transaction is over", async () => {
    let later: Promise<number> | undefined;
    const count = await inTransaction(async (tx) => {
      // Work started inside but run after the commit may use the global client.
      later = new Promise((resolve) => setTimeout(resolve, 50)).then(() => db.user.count());
      return tx.user.count();
    });
    expect(count).toBe(0);
    expect(await later).toBe(0);
    expect(await db.user.count()).toBe(0);
  });
});
