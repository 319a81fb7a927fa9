import { inject } from "vitest";
import { createPrismaClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/generated/prisma/client";

export type TTestBackend = "postgres" | "pglite";

export const testBackends: TTestBackend[] = ["postgres", "pglite"];

export type TTestDatabase = {
  backend: TTestBackend;
  db: PrismaClient;
  // Empties every table but the migration history, for isolation between tests.
  reset: () => Promise<void>;
  close: () => Promise<void>;
};

export async function truncateAllTables(db: PrismaClient): Promise<void> {
  const tables = await db.$queryRaw<{ tablename: string }[]>`
    SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'`;
  if (tables.length === 0) return;
  const list = tables.map(({ tablename }) => `"${tablename.replaceAll('"', '""')}"`).join(", ");
  await db.$executeRawUnsafe(`TRUNCATE TABLE ${list} RESTART IDENTITY CASCADE`);
}

// The throw-away PostgreSQL database made by lib/testing/global-setup.ts (integration tests only).
export function connectPostgresTestDatabase(): TTestDatabase {
  const db = createPrismaClient({ kind: "postgres", url: inject("databaseUrl") });
  return { backend: "postgres", db, reset: () => truncateAllTables(db), close: () => db.$disconnect() };
}

export async function openTestDatabase(backend: TTestBackend): Promise<TTestDatabase> {
  if (backend === "postgres") return connectPostgresTestDatabase();
  const { createPgliteTestDatabase } = await import("./pglite");
  return createPgliteTestDatabase();
}
