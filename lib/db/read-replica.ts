import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { appEnvConcern } from "@/lib/config/app-env";
import { getDatabaseEnv } from "@/lib/config/database-env";
import { parseEnvConcern } from "@/lib/config/define-env";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { beforeDbDisconnect, createPrismaClient, db, getPostgresPool } from "./client";
import { inPoolTransaction, inSqlTransaction, pgRunner, runSql, type TSqlRunner } from "./sql";

// Lists, exports, the overview, search and health reads go to DATABASE_READ_URL when set. Read-your-own-write: a
// person's change leaves the primary's WAL position in a cookie, and their reads stay on the primary until the
// replica has replayed that far. Unset (and on PGlite) every read is the primary's.

const ownWriteCookie = "payments_own_write_lsn";
const ownWriteMaxAgeSeconds = 300;
const lsnPattern = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

type Replica = { client: PrismaClient; pool: pg.Pool };

const cache = globalThis as typeof globalThis & { __paymentsReplica?: Replica | null };

function getReplica(): Replica | null {
  if (cache.__paymentsReplica !== undefined) return cache.__paymentsReplica;
  const env = getDatabaseEnv();
  if (!env.DATABASE_URL || !env.DATABASE_READ_URL) {
    cache.__paymentsReplica = null;
    return null;
  }
  const pool = new pg.Pool({ connectionString: env.DATABASE_READ_URL, application_name: "payments_replica" });
  pool.on("error", (error) => log.warn({ error: error.message }, "database: an idle replica connection failed"));
  const replica = { client: createPrismaClient({ kind: "postgres", url: env.DATABASE_READ_URL }), pool };
  beforeDbDisconnect(async () => {
    if (cache.__paymentsReplica === replica) cache.__paymentsReplica = undefined;
    await pool.end();
    await replica.client.$disconnect();
  });
  cache.__paymentsReplica = replica;
  return replica;
}

// Imported when called: the worker and scripts load this module outside Next.js, where next/headers cannot load.
async function requestCookies() {
  const { cookies } = await import("next/headers");
  return cookies();
}

// Outside a request (jobs, scripts) there are no cookies and no own write to wait for. Next.js's own signals (a
// page found dynamic while prerendering) carry a digest and pass through.
async function ownWriteLsn(): Promise<string | null> {
  try {
    const value = (await requestCookies()).get(ownWriteCookie)?.value;
    return value && lsnPattern.test(value) ? value : null;
  } catch (error) {
    if (typeof (error as { digest?: unknown } | null)?.digest === "string") throw error;
    return null;
  }
}

// Past the commit record of every transaction committed (or notified) so far.
async function primaryWalPosition(primary: pg.Pool): Promise<string | null> {
  const { rows } = await primary.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn()::text AS lsn");
  return rows[0]?.lsn ?? null;
}

// A server not in recovery (promoted, or a primary given as the replica) is behind nothing.
async function hasReplayed(replica: Replica, lsn: string): Promise<boolean> {
  const { rows } = await replica.pool.query<{ caughtUp: boolean | null }>(
    'SELECT NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= $1::pg_lsn AS "caughtUp"',
    [lsn],
  );
  return rows[0]?.caughtUp === true;
}

async function useReplica(): Promise<Replica | null> {
  const replica = getReplica();
  if (!replica) return null;
  const lsn = await ownWriteLsn();
  if (!lsn) return replica;
  try {
    return (await hasReplayed(replica, lsn)) ? replica : null;
  } catch (error) {
    log.warn({ err: error }, "database: the replica did not answer; reading the primary");
    return null;
  }
}

export function hasReadReplica(): boolean {
  return getReplica() !== null;
}

const catchUpPollsMs = [5, 10, 20, 50, 100, 200];

/** True once the replica has replayed all the primary holds now (a server not in recovery is behind nothing). */
export async function waitForReplicaToCatchUp(timeoutMs: number): Promise<boolean> {
  const replica = getReplica();
  const pool = replica && getPostgresPool();
  if (!replica || !pool) return true;
  try {
    const lsn = await primaryWalPosition(pool);
    if (!lsn) return true;
    const deadline = Date.now() + timeoutMs;
    for (let poll = 0; ; poll += 1) {
      if (await hasReplayed(replica, lsn)) return true;
      if (Date.now() >= deadline) return false;
      await sleep(catchUpPollsMs[Math.min(poll, catchUpPollsMs.length - 1)]);
    }
  } catch (error) {
    log.warn({ err: error }, "database: could not compare the replica's position with the primary's");
    return false;
  }
}

/** The Prisma client for a read that may lag a little: the replica, or the primary (see above). */
export async function readDb(): Promise<PrismaClient> {
  return (await useReplica())?.client ?? db;
}

/** `runSql` for such reads. */
export async function readSql(): Promise<TSqlRunner> {
  const replica = await useReplica();
  return replica ? pgRunner(replica.pool, true) : runSql;
}

/** `inSqlTransaction` for such reads: one snapshot over several statements. */
export async function inReadSqlTransaction<T>(work: (run: TSqlRunner) => Promise<T>): Promise<T> {
  const replica = await useReplica();
  return replica ? inPoolTransaction(replica.pool, work, true) : inSqlTransaction(work);
}

/** After a change by the person making this request: their next reads stay on the primary until the replica has it. */
export async function rememberOwnWrite(): Promise<void> {
  const pool = getReplica() && getPostgresPool();
  if (!pool) return;
  try {
    const lsn = await primaryWalPosition(pool);
    if (!lsn) return;
    (await requestCookies()).set(ownWriteCookie, lsn, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      maxAge: ownWriteMaxAgeSeconds,
      secure: parseEnvConcern(appEnvConcern).APP_URL?.startsWith("https://") ?? false,
    });
  } catch (error) {
    log.warn({ err: error }, "database: could not note the primary's position after a change");
  }
}
