import { inject } from "vitest";
import { createPrismaClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { truncateAllTables } from "./truncate-tables";

export type TTestBackend = "postgres" | "pglite";

export const testBackends: TTestBackend[] = ["postgres", "pglite"];

export type TTestDatabase = {
  backend: TTestBackend;
  db: PrismaClient;
  reset: () => Promise<void>;
  close: () => Promise<void>;
};

// Files run one at a time per worker (VITEST_POOL_ID), so no two running files share this database.
export function testDatabaseUrl(): string {
  const urls = inject("databaseUrls");
  const url = urls[Number(process.env.VITEST_POOL_ID ?? 1) - 1];
  if (!url) throw new Error(`No test database for worker ${process.env.VITEST_POOL_ID} (${urls.length} made)`);
  return url;
}

export function connectPostgresTestDatabase(): TTestDatabase {
  const db = createPrismaClient({ kind: "postgres", url: testDatabaseUrl() });
  return { backend: "postgres", db, reset: () => truncateAllTables(db), close: () => db.$disconnect() };
}

export async function openTestDatabase(backend: TTestBackend): Promise<TTestDatabase> {
  if (backend === "postgres") return connectPostgresTestDatabase();
  const { createPgliteTestDatabase } = await import("./pglite");
  return createPgliteTestDatabase();
}
