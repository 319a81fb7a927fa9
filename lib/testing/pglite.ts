import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, inject } from "vitest";
import { createPrismaClient, disconnectDb, getDatabaseConnection } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrate";
import type { TTestBackend, TTestDatabase } from "./test-database";
import { truncateAllTables } from "./truncate-tables";

async function migratedSnapshot(): Promise<Blob | undefined> {
  const file = inject("pgliteSnapshot");
  return file ? new Blob([await readFile(file)]) : undefined;
}

// Starts from the global setup's migrated snapshot when there is one; still about a second: create one per file.
export async function createPgliteTestDatabase(): Promise<TTestDatabase & { pglite: PGlite }> {
  const snapshot = await migratedSnapshot();
  const pglite = snapshot ? new PGlite({ loadDataDir: snapshot }) : new PGlite();
  if (!snapshot) await applyMigrations({ kind: "pglite", pglite });
  const db = createPrismaClient({ kind: "pglite", pglite });
  return {
    backend: "pglite",
    db,
    pglite,
    reset: () => truncateAllTables(db),
    close: async () => {
      await db.$disconnect();
      await pglite.close();
    },
  };
}

// One PGlite connection, as when DATABASE_URL is unset, where transaction bugs show; call before the first query.
export async function useEmbeddedDefaultDatabase(): Promise<{ close: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "payments-pglite-"));
  await disconnectDb();
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DATA_DIR = dataDir;
  const snapshot = await migratedSnapshot();
  if (snapshot) {
    const seed = new PGlite(dataDir, { loadDataDir: snapshot });
    await seed.waitReady;
    await seed.close();
  }
  await applyMigrations(getDatabaseConnection());
  return {
    close: async () => {
      await disconnectDb();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// In a `describe.each(testBackends)`: the global client runs on PostgreSQL, or on the embedded PGlite as when
// DATABASE_URL is unset, and is back on PostgreSQL afterwards.
export function useAppDatabase(backend: TTestBackend): void {
  let embedded: { close: () => Promise<void> } | undefined;
  const postgresUrl = process.env.DATABASE_URL;
  beforeAll(async () => {
    if (backend === "pglite") embedded = await useEmbeddedDefaultDatabase();
  });
  afterAll(async () => {
    await embedded?.close();
    if (backend === "pglite") {
      delete process.env.PGLITE_DATA_DIR;
      process.env.DATABASE_URL = postgresUrl;
    }
  });
}
