import type { Prisma } from "@/lib/generated/prisma/client";

// Advisory locks held until the transaction ends (re-entrant within it). A key is text, hashed to the lock's bigint,
// so every caller that names the same resource the same way waits for the others.

/** Waits for the lock named `key`, held by `tx` until it commits or rolls back. */
export async function takeTransactionLock(
  tx: Pick<Prisma.TransactionClient, "$executeRaw">,
  key: string,
): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

// The same locks inside a larger raw SQL statement, where one round trip must take them beside other work.
export const transactionLockSql = {
  /** `keySql`: an SQL expression of type text (a cast parameter or a column); the lock takeTransactionLock takes. */
  byText: (keySql: string): string => `pg_advisory_xact_lock(hashtextextended(${keySql}, 0))`,
  /** A fixed bigint lock of its own, for a statement that serializes one job. */
  byNumber: (key: bigint): string => `pg_advisory_xact_lock(${key}::bigint)`,
};
