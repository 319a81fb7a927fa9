import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { getDatabaseEnv } from "@/lib/config/database-env";
import { type Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { openPgliteDataDir } from "./pglite";
import { isStatementTracing, tracedAdapter } from "./traced-adapter";

export type TDatabaseConnection =
  | {
      kind: "postgres";
      url: string;
      /** PostgreSQL itself when `url` is a pooler: sessions of their own (LISTEN, migrations) go here. */
      directUrl?: string;
      poolMode?: "session" | "transaction";
    }
  | { kind: "pglite"; pglite: PGlite };

export function sessionUrl(connection: Extract<TDatabaseConnection, { kind: "postgres" }>): string {
  return connection.directUrl ?? connection.url;
}

export function createPrismaClient(connection: TDatabaseConnection): PrismaClient {
  const adapter =
    connection.kind === "postgres"
      ? new PrismaPg({ connectionString: connection.url })
      : new PrismaPGlite(connection.pglite);
  return new PrismaClient({ adapter: isStatementTracing() ? tracedAdapter(adapter, "postgresql") : adapter });
}

type Database = {
  client: PrismaClient;
  backend: TDatabaseConnection["kind"];
  connection: TDatabaseConnection;
  pool?: pg.Pool;
  close: () => Promise<void>;
};

function openDefaultDatabase(): Database {
  const env = getDatabaseEnv();
  if (env.DATABASE_URL) {
    const connection: TDatabaseConnection = {
      kind: "postgres",
      url: env.DATABASE_URL,
      directUrl: env.DATABASE_DIRECT_URL,
      poolMode: env.DATABASE_POOL_MODE,
    };
    const client = createPrismaClient(connection);
    return { client, backend: "postgres", connection, close: () => client.$disconnect() };
  }
  const embedded = openPgliteDataDir(env.PGLITE_DATA_DIR);
  const connection: TDatabaseConnection = { kind: "pglite", pglite: embedded.pglite };
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

// One client per process: Next.js dev reloads modules, and a second client would open a second pool (PGlite: fail).
const cache = globalThis as typeof globalThis & { __paymentsDatabase?: Database };

function getDatabase(): Database {
  cache.__paymentsDatabase ??= openDefaultDatabase();
  return cache.__paymentsDatabase;
}

// A flag, not mere presence: work started inside a transaction may outlive it.
const openTransaction = new AsyncLocalStorage<{ isOpen: boolean }>();

export async function trackTransaction<T>(work: () => Promise<T>): Promise<T> {
  const scope = { isOpen: true };
  return openTransaction.run(scope, async () => {
    try {
      return await work();
    } finally {
      scope.isOpen = false;
    }
  });
}

// The transaction guard (docs/database.md): on PGlite's one connection the global client would wait for the open
// transaction, which waits for it. On PostgreSQL production logs instead of failing the request.
export function assertNoOpenTransaction(use: string): void {
  if (!openTransaction.getStore()?.isOpen) return;
  const error = new Error(
    `database: ${use} on the global client inside an open transaction; pass the transaction client down (docs/database.md)`,
  );
  if (getDatabase().backend === "postgres" && process.env.NODE_ENV === "production") {
    log.error({ err: error }, "database: global client used inside a transaction");
    return;
  }
  throw error;
}

type TransactionOptions = { maxWait?: number; timeout?: number; isolationLevel?: Prisma.TransactionIsolationLevel };

function transactionOf(client: PrismaClient): PrismaClient["$transaction"] {
  const run = (arg: unknown, options?: TransactionOptions) =>
    typeof arg === "function"
      ? trackTransaction(() => client.$transaction(arg as (tx: Prisma.TransactionClient) => Promise<unknown>, options))
      : client.$transaction(arg as Prisma.PrismaPromise<unknown>[], options);
  return run as PrismaClient["$transaction"];
}

// Opens on first use, not on import, so `next build` does not take the PGlite lock.
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, key) {
    assertNoOpenTransaction(`db.${String(key)}`);
    const client = getDatabase().client;
    if (key === "$transaction") return transactionOf(client);
    const value: unknown = Reflect.get(client, key);
    return typeof value === "function" ? value.bind(client) : value;
  },
});

export type TTransactionClient = Prisma.TransactionClient;

// The one way to open a transaction: `work` passes its client to everything it calls. No upstream calls inside
// unless a lock must be held across the call (and say so).
export function inTransaction<T>(
  work: (tx: TTransactionClient) => Promise<T>,
  options?: TransactionOptions,
): Promise<T> {
  return db.$transaction(work, options);
}

export function withTransaction<T>(
  client: TTransactionClient | undefined,
  work: (tx: TTransactionClient) => Promise<T>,
): Promise<T> {
  return client ? work(client) : inTransaction(work);
}

export function getDatabaseBackend(): TDatabaseConnection["kind"] {
  return getDatabase().backend;
}

export function getDatabaseConnection(): TDatabaseConnection {
  return getDatabase().connection;
}

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

const beforeDisconnect = new Set<() => Promise<void>>();

/** Work to finish before the database closes, e.g. counters kept in memory; a timer's next write would reopen it. */
export function beforeDbDisconnect(finish: () => Promise<void>): void {
  beforeDisconnect.add(finish);
}

export async function disconnectDb(): Promise<void> {
  for (const finish of beforeDisconnect) await finish();
  beforeDisconnect.clear();
  const database = cache.__paymentsDatabase;
  cache.__paymentsDatabase = undefined;
  await database?.pool?.end();
  await database?.close();
}
