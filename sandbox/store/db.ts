import { mkdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";

// One SQLite file under SANDBOX_DATA_DIR. WAL with synchronous=NORMAL: a commit has reached the OS
// before the HTTP answer leaves, so it survives a kill -9 of the sandbox (not a power loss).
let database: DatabaseSync | undefined;
const schemas: string[] = [];
const statements = new Map<string, StatementSync>();

function current(): DatabaseSync {
  if (!database) throw new Error("sandbox database is not open (call openDatabase first)");
  return database;
}

/** Registers `CREATE TABLE IF NOT EXISTS ...` SQL; run at open (or at once if already open). */
export function registerSchema(sql: string): void {
  schemas.push(sql);
  database?.exec(sql);
}

export function openDatabase(dataDir: string): DatabaseSync {
  mkdirSync(dataDir, { recursive: true });
  database = new DatabaseSync(path.join(dataDir, "sandbox.sqlite"));
  database.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;");
  for (const sql of schemas) database.exec(sql);
  return database;
}

export function closeDatabase(): void {
  statements.clear();
  database?.close();
  database = undefined;
}

/** A prepared statement, compiled once per process. */
export function statement(sql: string): StatementSync {
  let prepared = statements.get(sql);
  if (!prepared) {
    prepared = current().prepare(sql);
    statements.set(sql, prepared);
  }
  return prepared;
}

let depth = 0;

/**
 * Runs `fn` inside BEGIN IMMEDIATE ... COMMIT. It is synchronous, so no other request can interleave:
 * read-check-write sequences such as "refunds never exceed the amount paid" hold under concurrency.
 * Nested calls join the outer transaction.
 */
export function transaction<T>(fn: () => T): T {
  if (depth > 0) return fn();
  const conn = current();
  conn.exec("BEGIN IMMEDIATE");
  depth += 1;
  try {
    const result = fn();
    conn.exec("COMMIT");
    return result;
  } catch (error) {
    conn.exec("ROLLBACK");
    throw error;
  } finally {
    depth -= 1;
  }
}

/** Resources stored as JSON documents keyed by (client_id, id): the owning client is part of every lookup. */
export type TCollection<T> = {
  insert(clientId: string, id: string, createdAtMs: number, doc: T): void;
  get(clientId: string, id: string): T | undefined;
  update(clientId: string, id: string, doc: T): void;
  delete(clientId: string, id: string): boolean;
  /** Every document of the client, oldest first, optionally limited to a creation-time range (inclusive). */
  list(clientId: string, range?: { fromMs?: number; toMs?: number }): T[];
};

export function defineCollection<T>(table: string): TCollection<T> {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`invalid table name ${table}`);
  registerSchema(`
    CREATE TABLE IF NOT EXISTS ${table} (
      client_id TEXT NOT NULL,
      id TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      doc TEXT NOT NULL,
      PRIMARY KEY (client_id, id)
    );
    CREATE INDEX IF NOT EXISTS ${table}_created ON ${table} (client_id, created_at);
  `);
  const parse = (row: unknown) => JSON.parse((row as { doc: string }).doc) as T;
  return {
    insert(clientId, id, createdAtMs, doc) {
      statement(`INSERT INTO ${table} (client_id, id, created_at, doc) VALUES (?, ?, ?, ?)`).run(
        clientId,
        id,
        createdAtMs,
        JSON.stringify(doc),
      );
    },
    get(clientId, id) {
      const row = statement(`SELECT doc FROM ${table} WHERE client_id = ? AND id = ?`).get(clientId, id);
      return row ? parse(row) : undefined;
    },
    update(clientId, id, doc) {
      statement(`UPDATE ${table} SET doc = ? WHERE client_id = ? AND id = ?`).run(JSON.stringify(doc), clientId, id);
    },
    delete(clientId, id) {
      return statement(`DELETE FROM ${table} WHERE client_id = ? AND id = ?`).run(clientId, id).changes === 1;
    },
    list(clientId, range = {}) {
      return statement(
        `SELECT doc FROM ${table} WHERE client_id = ? AND created_at >= ? AND created_at <= ? ORDER BY created_at, rowid`,
      )
        .all(clientId, range.fromMs ?? Number.MIN_SAFE_INTEGER, range.toMs ?? Number.MAX_SAFE_INTEGER)
        .map(parse);
    },
  };
}

registerSchema("CREATE TABLE IF NOT EXISTS sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL);");

/** Next value (from 1) of a named counter, for the spec's integer ids. Call inside a transaction. */
export function nextSequence(name: string): number {
  const row = statement(
    "INSERT INTO sequences (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value",
  ).get(name) as { value: number };
  return row.value;
}
