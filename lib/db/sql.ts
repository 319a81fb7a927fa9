import "server-only";
import { createHash } from "node:crypto";
import type pg from "pg";
import type { Prisma } from "@/lib/generated/prisma/client";
import { assertNoOpenTransaction, db, getDatabaseConnection, getPostgresPool, trackTransaction } from "./client";
import { isStatementTracing, withStatementSpan } from "./traced-adapter";

// About a tenth of a Prisma query's CPU (docs/webhooks.md). Same on pg and PGlite: cast every parameter, pass
// timestamps as ISO strings (`($n::timestamptz AT TIME ZONE 'UTC')`, the UTC wall time Prisma stores), return only
// text, int4, boolean or json. Constant text: it names the prepared statement.

export type TSqlRunner = <TRow>(text: string, values: unknown[]) => Promise<TRow[]>;

export function prismaSqlRunner(client: Pick<Prisma.TransactionClient, "$queryRawUnsafe">): TSqlRunner {
  return <TRow>(text: string, values: unknown[]) => client.$queryRawUnsafe<TRow[]>(text, ...values);
}

const statementNames = new Map<string, string>();

// A pure function of the text: a production build may hold several copies of this module (one per route chunk),
// all sharing the pool's connections, so a counter would give two statements one name.
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `hot_${createHash("sha256").update(text).digest("base64url").slice(0, 22)}`;
    statementNames.set(text, name);
  }
  return name;
}

// A transaction-pooling pooler hands each transaction any server connection, where a named statement may not exist.
function hasNamedStatements(): boolean {
  const connection = getDatabaseConnection();
  return connection.kind !== "postgres" || connection.poolMode !== "transaction";
}

export function pgRunner(client: pg.Pool | pg.PoolClient, isNamed = hasNamedStatements()): TSqlRunner {
  return async <TRow>(text: string, values: unknown[]) => {
    const query = () =>
      client.query<TRow & pg.QueryResultRow>({ name: isNamed ? statementName(text) : undefined, text, values });
    return (await (isStatementTracing() ? withStatementSpan(text, "postgresql", query) : query())).rows;
  };
}

export const runSql: TSqlRunner = (text, values) => {
  assertNoOpenTransaction("runSql");
  const pool = getPostgresPool();
  return pool ? pgRunner(pool)(text, values) : prismaSqlRunner(db)(text, values);
};

/** One statement for many items: they go as one JSON array, each with its "index", and a row per item comes back. */
export async function runSqlForItems<TRow>(text: string, items: object[]): Promise<Array<TRow | undefined>> {
  const json = JSON.stringify(items.map((item, index) => ({ index, ...item })));
  const rows = await runSql<TRow & { index: number }>(text, [json]);
  const byIndex = new Map(rows.map((row) => [row.index, row]));
  return items.map((_, index) => byIndex.get(index));
}

export const isoUtc = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export async function inSqlTransaction<T>(work: (run: TSqlRunner) => Promise<T>): Promise<T> {
  assertNoOpenTransaction("inSqlTransaction");
  const pool = getPostgresPool();
  if (!pool) return db.$transaction((tx) => work(prismaSqlRunner(tx)));
  return trackTransaction(() => inPoolTransaction(pool, work));
}

export async function inPoolTransaction<T>(
  pool: pg.Pool,
  work: (run: TSqlRunner) => Promise<T>,
  isNamed = hasNamedStatements(),
): Promise<T> {
  const client = await pool.connect();
  let isBroken = false;
  try {
    await client.query("BEGIN");
    const result = await work(pgRunner(client, isNamed));
    await client.query("COMMIT");
    return result;
  } catch (error) {
    // A connection that cannot even roll back is dropped rather than handed to the next caller.
    await client.query("ROLLBACK").catch(() => (isBroken = true));
    throw error;
  } finally {
    client.release(isBroken);
  }
}
