import { PGlite } from "@electric-sql/pglite";
import { createPrismaClient } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/migrate";
import { type TestDatabase, truncateAllTables } from "./test-database";

// A fresh in-memory PGlite database with every migration applied, for database-layer tests
// that must pass on both backends. Each call costs about a second: create one per file.
export async function createPgliteTestDatabase(): Promise<TestDatabase & { pglite: PGlite }> {
  const pglite = new PGlite();
  await applyMigrations({ kind: "pglite", pglite });
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
