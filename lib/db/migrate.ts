import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import pg from "pg";

// Keeps Prisma Migrate's bookkeeping (`migrate deploy` sees these applied) but runs each in a transaction.

export const defaultMigrationsDir = path.join(process.cwd(), "prisma", "migrations");

// Same key as Prisma's schema engine, so this runner and `prisma migrate deploy` never run at once.
const migrationAdvisoryLockKey = 72707369;

// Verbatim from Prisma's schema engine (PostgreSQL flavour).
const createMigrationsTableSql = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

export type TMigrationTarget = { kind: "postgres"; url: string } | { kind: "pglite"; pglite: PGlite };

export type TLocalMigration = { name: string; script: string; checksum: string };

type TMigrationRecord = {
  id: string;
  checksum: string;
  migration_name: string;
  logs: string | null;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
};

export type TMigrationResult = { applied: string[]; alreadyApplied: string[] };

export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MigrationError";
  }
}

export function checksumOf(script: string): string {
  return createHash("sha256").update(script).digest("hex");
}

// Prisma accepts a file whose line endings git converted (CRLF <-> LF) as unchanged.
function matchesChecksum(script: string, checksum: string): boolean {
  const variants = [script, script.replaceAll("\r\n", "\n"), script.replaceAll("\r\n", "\n").replaceAll("\n", "\r\n")];
  return variants.some((variant) => checksumOf(variant) === checksum);
}

export async function readLocalMigrations(migrationsDir = defaultMigrationsDir): Promise<TLocalMigration[]> {
  if (!existsSync(migrationsDir)) throw new MigrationError(`No migrations folder at ${migrationsDir}.`);
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory() && existsSync(path.join(migrationsDir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const script = await readFile(path.join(migrationsDir, name, "migration.sql"), "utf8");
      return { name, script, checksum: checksumOf(script) };
    }),
  );
}

type SqlSession = {
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  exec(script: string): Promise<void>;
};

type Connection = SqlSession & {
  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

function pgliteSession(db: PGlite | Transaction): SqlSession {
  return {
    query: async <Row>(sql: string, params: unknown[] = []) => (await db.query<Row>(sql, params)).rows,
    exec: async (script) => {
      await db.exec(script);
    },
  };
}

function connectPglite(pglite: PGlite): Connection {
  return {
    ...pgliteSession(pglite),
    transaction: (work) => pglite.transaction((tx) => work(pgliteSession(tx))),
    close: async () => {},
  };
}

async function connectPostgres(url: string): Promise<Connection> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const session: SqlSession = {
    query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
    // Without parameters pg uses the simple query protocol, which runs several statements.
    exec: async (script) => {
      await client.query(script);
    },
  };
  await client.query("SELECT pg_advisory_lock($1)", [migrationAdvisoryLockKey]);
  return {
    ...session,
    transaction: async (work) => {
      await client.query("BEGIN");
      try {
        const result = await work(session);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    },
    close: async () => {
      await client.query("SELECT pg_advisory_unlock($1)", [migrationAdvisoryLockKey]).catch(() => undefined);
      await client.end();
    },
  };
}

function checkHistory(records: TMigrationRecord[], local: TLocalMigration[]): void {
  const localByName = new Map(local.map((migration) => [migration.name, migration]));
  for (const record of records) {
    if (record.rolled_back_at) continue;
    if (!record.finished_at) {
      throw new MigrationError(
        `Migration ${record.migration_name} started at ${record.started_at.toISOString()} but never finished. ` +
          "Check the database by hand, then mark it with `prisma migrate resolve` (or delete its row in _prisma_migrations) and run again.",
      );
    }
    const file = localByName.get(record.migration_name);
    if (!file) {
      throw new MigrationError(
        `Migration ${record.migration_name} is applied to this database but missing from prisma/migrations. ` +
          "Restore its folder (for example from git), or use a fresh database.",
      );
    }
    if (!matchesChecksum(file.script, record.checksum)) {
      throw new MigrationError(
        `Migration ${record.migration_name} was changed after it was applied to this database. ` +
          "Applied migrations are immutable: restore the original migration.sql and add the change as a new migration (`npm run db:new -- --name ...`).",
      );
    }
  }
}

async function applyOne(connection: Connection, migration: TLocalMigration): Promise<void> {
  try {
    await connection.transaction(async (session) => {
      const id = randomUUID();
      await session.query(
        "INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)",
        [id, migration.checksum, migration.name],
      );
      await session.exec(migration.script);
      await session.query(
        "UPDATE _prisma_migrations SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1",
        [id],
      );
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${reason}`, { cause: error });
  }
}

export async function applyMigrations(
  target: TMigrationTarget,
  options: { migrationsDir?: string; onApplied?: (name: string) => void } = {},
): Promise<TMigrationResult> {
  const local = await readLocalMigrations(options.migrationsDir);
  const connection = target.kind === "postgres" ? await connectPostgres(target.url) : connectPglite(target.pglite);
  try {
    await connection.exec(createMigrationsTableSql);
    const records = await connection.query<TMigrationRecord>(
      "SELECT * FROM _prisma_migrations ORDER BY started_at, migration_name",
    );
    checkHistory(records, local);
    const done = new Set(
      records.filter((record) => record.finished_at && !record.rolled_back_at).map((record) => record.migration_name),
    );
    const result: TMigrationResult = { applied: [], alreadyApplied: [] };
    for (const migration of local) {
      if (done.has(migration.name)) {
        result.alreadyApplied.push(migration.name);
        continue;
      }
      await applyOne(connection, migration);
      result.applied.push(migration.name);
      options.onApplied?.(migration.name);
    }
    return result;
  } finally {
    await connection.close();
  }
}
