// Config for the Prisma 6 CLI (the `prisma6` dev dependency), used only by `npm run db:new` and
// `npm run db:check` to compute `migrate diff` offline. Prisma 7's schema engine is a native
// binary that cannot be downloaded here; Prisma 6 also ships it as WASM (`engine: "js"`),
// which reaches the database through a driver adapter: here throw-away in-memory PGlite
// databases, including the shadow database that `--from-migrations` replays the migrations into.
// Prisma 7 never reads this file: its own config is prisma.config.ts at the repository root.
import { PGlite } from "@electric-sql/pglite";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";

async function connectInMemory(): Promise<SqlDriverAdapter> {
  const pglite = new PGlite();
  const adapter = await new PrismaPGlite(pglite).connect();
  // The WASM engine replays each migration.sql as one parameterless executeRaw; PGlite's
  // prepared statements take a single command, so run such scripts with exec() instead.
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    if (query.args.length > 0) return executeRaw(query);
    const results = await pglite.exec(query.sql);
    return results.reduce((count, result) => count + (result.affectedRows ?? 0), 0);
  };
  // An unclosed PGlite makes Node exit with code 99, which would hide the diff's exit code.
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    await dispose();
    await pglite.close();
  };
  return adapter;
}

const adapterFactory: SqlMigrationAwareDriverAdapterFactory = {
  provider: "postgres",
  adapterName: "pglite-prisma-adapter",
  connect: connectInMemory,
  connectToShadowDb: connectInMemory,
};

export default {
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => adapterFactory,
};
