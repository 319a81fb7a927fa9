import "server-only";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { getDatabaseEnv } from "@/lib/config/database-env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { openPgliteDataDir } from "./pglite";

export type DatabaseConnection = { kind: "postgres"; url: string } | { kind: "pglite"; pglite: PGlite };

export function createPrismaClient(connection: DatabaseConnection): PrismaClient {
  const adapter =
    connection.kind === "postgres"
      ? new PrismaPg({ connectionString: connection.url })
      : new PrismaPGlite(connection.pglite);
  return new PrismaClient({ adapter });
}

type Database = {
  client: PrismaClient;
  backend: DatabaseConnection["kind"];
  connection: DatabaseConnection;
  // Opened on first use by getPostgresPool().
  pool?: pg.Pool;
  close: () => Promise<void>;
};

function openDefaultDatabase(): Database {
  const env = getDatabaseEnv();
  if (env.DATABASE_URL) {
    const connection: DatabaseConnection = { kind: "postgres", url: env.DATABASE_URL };
    const client = createPrismaClient(connection);
    return { client, backend: "postgres", connection, close: () => client.$disconnect() };
  }
  const embedded = openPgliteDataDir(env.PGLITE_DATA_DIR);
  const connection: DatabaseConnection = { kind: "pglite", pglite: embedded.pglite };
  const client = createPrismaClient(connection);
  return {
    client,
    backend: "pglite",
    connection,
    close: async () => {
      await client.$disconnect();
      await embedded.close();
    },
  };
}

// One client per process: Next.js dev reloads modules on every change, and a second client
// would open a second connection pool, or for PGlite fail on the data folder's lock.
const cache = globalThis as typeof globalThis & { __paymentsDatabase?: Database };

function getDatabase(): Database {
  cache.__paymentsDatabase ??= openDefaultDatabase();
  return cache.__paymentsDatabase;
}

// The connection opens on first use, not on import, so `next build` and modules that never
// query do not take the PGlite lock.
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, key) {
    const client = getDatabase().client;
    const value: unknown = Reflect.get(client, key);
    return typeof value === "function" ? value.bind(client) : value;
  },
});

export function getDatabaseBackend(): DatabaseConnection["kind"] {
  return getDatabase().backend;
}

// For code that needs its own session beside Prisma's pool (lib/events/bus.ts: LISTEN).
export function getDatabaseConnection(): DatabaseConnection {
  return getDatabase().connection;
}

/**
 * A plain node-postgres pool beside Prisma's, for hot paths where a Prisma query's own CPU cost
 * shows (lib/db/sql.ts); null on the embedded PGlite, which has a single connection.
 */
export function getPostgresPool(): pg.Pool | null {
  const database = getDatabase();
  if (database.connection.kind !== "postgres") return null;
  if (!database.pool) {
    database.pool = new pg.Pool({ connectionString: database.connection.url, application_name: "payments_sql" });
    // An idle connection that drops must not crash the process; the pool replaces it.
    database.pool.on("error", (error) =>
      log.warn({ error: error.message }, "database: an idle pooled connection failed"),
    );
  }
  return database.pool;
}

// For CLIs and tests: closes the connection (and releases the PGlite lock) so the process can exit.
export async function disconnectDb(): Promise<void> {
  const database = cache.__paymentsDatabase;
  cache.__paymentsDatabase = undefined;
  await database?.pool?.end();
  await database?.close();
}
