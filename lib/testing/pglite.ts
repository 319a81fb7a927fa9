import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { inject } from "vitest";
import { createPrismaClient, disconnectDb, getDatabaseConnection } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrate";
import type { TTestDatabase } from "./test-database";
import { truncateAllTables } from "./truncate-tables";

// The migrated data dir the integration project's global setup made (lib/testing/global-setup.ts); none elsewhere.
async function migratedSnapshot(): Promise<Blob | undefined> {
  const file = inject("pgliteSnapshot");
  return file ? new Blob([await readFile(file)]) : undefined;
}

// A fresh database with every migration applied. In the integration project it starts from the snapshot its global
// setup made (lib/testing/global-setup.ts), several times faster than a new cluster plus the migrations. Still about
// a second: create one per file.
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

// The app's `db` on a fresh PGlite folder, as when DATABASE_URL is unset (one connection: what transaction bugs
// need to show). Call it before the file's first query. In the integration project the folder starts from the
// migrated snapshot, so the app finds its migrations applied, as on every start after the first (the first start
// on an empty folder is the e2e suite's embedded run and lib/db/migrate.int.test.ts).
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
