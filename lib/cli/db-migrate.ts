// npm run db:migrate: to DATABASE_DIRECT_URL or DATABASE_URL (its session lock needs no pooler in between), else the
// embedded PGlite, without Prisma's native schema engine.
import "./load-env";
import { getDatabaseEnv } from "@/lib/config/database-env";
import { applyMigrations, type TMigrationResult } from "@/lib/db/migrate";
import { openPgliteDataDir } from "@/lib/db/pglite";

function redactPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

async function migrate(): Promise<{ where: string; result: TMigrationResult }> {
  const env = getDatabaseEnv();
  const onApplied = (name: string) => console.log(`  applied ${name}`);
  const url = env.DATABASE_DIRECT_URL || env.DATABASE_URL;
  if (url) {
    const result = await applyMigrations({ kind: "postgres", url }, { onApplied });
    return { where: `PostgreSQL ${redactPassword(url)}`, result };
  }
  const embedded = openPgliteDataDir(env.PGLITE_DATA_DIR);
  try {
    const result = await applyMigrations({ kind: "pglite", pglite: embedded.pglite }, { onApplied });
    return { where: `embedded PGlite at ${embedded.dataDir}`, result };
  } finally {
    await embedded.close();
  }
}

migrate().then(
  ({ where, result }) => {
    const summary =
      result.applied.length === 0 ? "already up to date" : `${result.applied.length} migration(s) applied`;
    console.log(`db:migrate: ${where}: ${summary} (${result.alreadyApplied.length + result.applied.length} in total).`);
  },
  (error: unknown) => {
    console.error(`db:migrate failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
