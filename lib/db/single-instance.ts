import "server-only";
import pg from "pg";
import { getDatabaseConnection, type TDatabaseConnection } from "./client";

export type TSingleInstanceResult<T> = { isAcquired: true; value: T } | { isAcquired: false };

// For PGlite: one process owns the database, and a session advisory lock is re-entrant on its single connection.
const heldInProcess = new Set<string>();

// Own connection (a pooled one would serve other queries); a process that dies drops it, and so the lock. A
// transaction-scoped lock in an open transaction: a transaction-pooling pooler keeps one server connection for it,
// where a session lock would stay on a server connection it hands to others.
export async function runAsSingleInstance<T>(
  name: string,
  work: () => Promise<T>,
  connection: TDatabaseConnection = getDatabaseConnection(),
): Promise<TSingleInstanceResult<T>> {
  if (connection.kind === "pglite") {
    if (heldInProcess.has(name)) return { isAcquired: false };
    heldInProcess.add(name);
    try {
      return { isAcquired: true, value: await work() };
    } finally {
      heldInProcess.delete(name);
    }
  }
  const client = new pg.Client({ connectionString: connection.url, application_name: `lock:${name}` });
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ isAcquired: boolean }>(
      `SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS "isAcquired"`,
      [name],
    );
    if (!rows[0]?.isAcquired) return { isAcquired: false };
    return { isAcquired: true, value: await work() };
  } finally {
    await client.query("COMMIT").catch(() => {});
    await client.end().catch(() => {});
  }
}
