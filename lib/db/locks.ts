import type { Prisma } from "@/lib/generated/prisma/client";

// Held until the transaction ends; text keys are hashed, so callers naming a resource the same way wait for each other.

export async function takeTransactionLock(
  tx: Pick<Prisma.TransactionClient, "$executeRaw">,
  key: string,
): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

export const transactionLockSql = {
  byText: (keySql: string): string => `pg_advisory_xact_lock(hashtextextended(${keySql}, 0))`,
  byNumber: (key: bigint): string => `pg_advisory_xact_lock(${key}::bigint)`,
};
