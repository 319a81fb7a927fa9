import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";

// TEST_DATABASE_ADMIN_URL (a role that may create databases) points the tests at another server than the local one.

// A local role only for tests; its password is no secret, it guards nothing but test data.
const testRole = { name: "payments", password: "payments" };

type Cluster = { version: string; name: string; port: number; isOnline: boolean };

export type TThrowawayDatabase = { name: string; url: string; drop: () => Promise<void> };

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function findLocalCluster(): Cluster | undefined {
  try {
    const [line] = execFileSync("pg_lsclusters", ["--no-header"], { encoding: "utf8" }).trim().split("\n");
    const [version, name, port, status] = (line ?? "").split(/\s+/);
    if (!version || !name || !port) return undefined;
    return { version, name, port: Number(port), isOnline: status === "online" };
  } catch {
    return undefined; // not Debian's postgresql-common: expect a server on the default port
  }
}

function runAsPostgres(port: number, sql: string): void {
  execFileSync("runuser", ["-u", "postgres", "--", "psql", "-p", String(port), "-v", "ON_ERROR_STOP=1", "-qc", sql], {
    stdio: ["ignore", "ignore", "pipe"],
  });
}

function prepareLocalServer(): string {
  const cluster = findLocalCluster();
  const port = cluster?.port ?? 5432;
  if (cluster && !cluster.isOnline) {
    if (!isRoot()) {
      throw new Error(
        `PostgreSQL ${cluster.version}/${cluster.name} is down: start it with \`sudo pg_ctlcluster ${cluster.version} ${cluster.name} start\`.`,
      );
    }
    execFileSync("pg_ctlcluster", [cluster.version, cluster.name, "start"], { stdio: "inherit" });
  }
  if (isRoot()) {
    runAsPostgres(
      port,
      `DO $$ BEGIN
         IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${testRole.name}') THEN
           CREATE ROLE ${testRole.name} LOGIN CREATEDB PASSWORD '${testRole.password}';
         END IF;
       END $$;`,
    );
  }
  return `postgresql://${testRole.name}:${testRole.password}@127.0.0.1:${port}/postgres`;
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Cannot reach PostgreSQL for the tests (${(error as Error).message}). Start the server, ` +
        "or set TEST_DATABASE_ADMIN_URL to a role that may create databases.",
      { cause: error },
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createThrowawayDatabase(prefix = "payments_test"): Promise<TThrowawayDatabase> {
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL || prepareLocalServer();
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // FORCE ends connections a test left open, but a role that is not a superuser may not end an autovacuum
    // worker's (42501): then a plain DROP, which stops autovacuum itself.
    drop: () =>
      withAdmin(adminUrl, (client) =>
        client
          .query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
          .catch((error: { code?: string }) =>
            error.code === "42501" ? client.query(`DROP DATABASE IF EXISTS "${name}"`) : Promise.reject(error),
          ),
      ).then(() => undefined),
  };
}

export async function ensureLocalDatabase(name: string): Promise<string> {
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL || prepareLocalServer();
  await withAdmin(adminUrl, async (client) => {
    const existing = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (existing.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
