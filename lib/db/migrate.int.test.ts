import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDatabaseUrl } from "@/lib/testing/test-database";
import {
  applyMigrations,
  checksumOf,
  defaultMigrationsDir,
  MigrationError,
  readLocalMigrations,
  type TMigrationTarget,
} from "./migrate";

type Scratch = { target: TMigrationTarget; query: <Row>(sql: string) => Promise<Row[]>; drop: () => Promise<void> };

// An empty database per test, so every test starts before the first migration.
async function createScratchPostgres(): Promise<Scratch> {
  const adminUrl = testDatabaseUrl();
  const name = `${new URL(adminUrl).pathname.slice(1)}_m${Math.random().toString(16).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    target: { kind: "postgres", url: url.toString() },
    query: async <Row>(sql: string) => (await client.query(sql)).rows as Row[],
    drop: async () => {
      await client.end();
      // Not WITH (FORCE): for a role that is not a superuser it fails when an autovacuum worker is in the new
      // database; a plain DROP stops that worker and waits for our closed connection to go.
      await admin.query(`DROP DATABASE "${name}"`);
      await admin.end();
    },
  };
}

// A new PGlite cluster runs initdb (over a second); loading the file's one empty cluster is several times faster.
let emptyCluster: Promise<Blob> | undefined;
async function dumpEmptyCluster(): Promise<Blob> {
  const fresh = new PGlite();
  try {
    await fresh.waitReady;
    return await fresh.dumpDataDir("none");
  } finally {
    await fresh.close();
  }
}

async function createScratchPglite(): Promise<Scratch> {
  emptyCluster ??= dumpEmptyCluster();
  const pglite = new PGlite({ loadDataDir: await emptyCluster });
  return {
    target: { kind: "pglite", pglite },
    query: async <Row>(sql: string) => (await pglite.query<Row>(sql)).rows,
    drop: () => pglite.close(),
  };
}

const backends = [
  { backend: "postgres", create: createScratchPostgres },
  { backend: "pglite", create: createScratchPglite },
];

describe.each(backends)("applyMigrations on $backend", ({ create }) => {
  let scratch: Scratch;
  let migrationsDir: string;

  beforeEach(async () => {
    scratch = await create();
    migrationsDir = await mkdtemp(path.join(tmpdir(), "migrations-"));
    await cp(defaultMigrationsDir, migrationsDir, { recursive: true });
  });

  afterEach(async () => {
    await scratch.drop();
    await rm(migrationsDir, { recursive: true, force: true });
  });

  async function addMigration(name: string, sql: string) {
    await mkdir(path.join(migrationsDir, name));
    await writeFile(path.join(migrationsDir, name, "migration.sql"), sql);
  }

  it("applies every migration in order and creates the schema's tables", async () => {
    const local = await readLocalMigrations(migrationsDir);
    const result = await applyMigrations(scratch.target, { migrationsDir });
    expect(result).toEqual({ applied: local.map((migration) => migration.name), alreadyApplied: [] });
    const tables = await scratch.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
    );
    expect(tables.map((table) => table.tablename)).toEqual(
      expect.arrayContaining(["User", "AuditLog", "RateLimitBucket"]),
    );
  });

  it("keeps Prisma Migrate's bookkeeping: same table, sha256 checksum, timestamps, steps", async () => {
    await applyMigrations(scratch.target, { migrationsDir });
    const columns = await scratch.query<{ column_name: string; data_type: string; is_nullable: string }>(
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([
      { column_name: "id", data_type: "character varying", is_nullable: "NO" },
      { column_name: "checksum", data_type: "character varying", is_nullable: "NO" },
      { column_name: "finished_at", data_type: "timestamp with time zone", is_nullable: "YES" },
      { column_name: "migration_name", data_type: "character varying", is_nullable: "NO" },
      { column_name: "logs", data_type: "text", is_nullable: "YES" },
      { column_name: "rolled_back_at", data_type: "timestamp with time zone", is_nullable: "YES" },
      { column_name: "started_at", data_type: "timestamp with time zone", is_nullable: "NO" },
      { column_name: "applied_steps_count", data_type: "integer", is_nullable: "NO" },
    ]);
    const rows = await scratch.query<Record<string, unknown>>(
      "SELECT * FROM _prisma_migrations ORDER BY migration_name",
    );
    const local = await readLocalMigrations(migrationsDir);
    expect(rows).toHaveLength(local.length);
    for (const [index, row] of rows.entries()) {
      const file = await readFile(path.join(migrationsDir, local[index]!.name, "migration.sql"), "utf8");
      expect(row).toMatchObject({
        migration_name: local[index]!.name,
        checksum: checksumOf(file),
        logs: null,
        rolled_back_at: null,
        applied_steps_count: 1,
      });
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect((row.finished_at as Date).getTime()).toBeGreaterThanOrEqual((row.started_at as Date).getTime());
    }
  });

  it("is a no-op when run again", async () => {
    const first = await applyMigrations(scratch.target, { migrationsDir });
    const second = await applyMigrations(scratch.target, { migrationsDir });
    expect(second).toEqual({ applied: [], alreadyApplied: first.applied });
    const [{ count }] = (await scratch.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM _prisma_migrations",
    )) as [{ count: number }];
    expect(count).toBe(first.applied.length);
  });

  it("applies only the new migration once others are applied", async () => {
    await applyMigrations(scratch.target, { migrationsDir });
    await addMigration("29990101000000_add_note", 'ALTER TABLE "User" ADD COLUMN "note" TEXT;');
    const result = await applyMigrations(scratch.target, { migrationsDir });
    expect(result.applied).toEqual(["29990101000000_add_note"]);
  });

  it("refuses to run when an applied migration's file was changed", async () => {
    const [first] = await readLocalMigrations(migrationsDir);
    await applyMigrations(scratch.target, { migrationsDir });
    await writeFile(path.join(migrationsDir, first!.name, "migration.sql"), `${first!.script}\n-- edited\n`);
    const run = applyMigrations(scratch.target, { migrationsDir });
    await expect(run).rejects.toBeInstanceOf(MigrationError);
    await expect(run).rejects.toThrow(`Migration ${first!.name} was changed after it was applied`);
  });

  it("accepts an applied migration whose line endings git converted, as Prisma does", async () => {
    const [first] = await readLocalMigrations(migrationsDir);
    await applyMigrations(scratch.target, { migrationsDir });
    await writeFile(path.join(migrationsDir, first!.name, "migration.sql"), first!.script.replaceAll("\n", "\r\n"));
    await expect(applyMigrations(scratch.target, { migrationsDir })).resolves.toMatchObject({ applied: [] });
  });

  it("rolls a failing migration back whole and records nothing for it", async () => {
    await applyMigrations(scratch.target, { migrationsDir });
    await addMigration(
      "29990101000000_broken",
      'CREATE TABLE "Half" (id INT);\nALTER TABLE "Missing" ADD COLUMN x INT;',
    );
    await expect(applyMigrations(scratch.target, { migrationsDir })).rejects.toThrow(
      /29990101000000_broken failed and was rolled back/,
    );
    expect(await scratch.query("SELECT 1 FROM pg_tables WHERE tablename = 'Half'")).toEqual([]);
    expect(
      await scratch.query("SELECT 1 FROM _prisma_migrations WHERE migration_name = '29990101000000_broken'"),
    ).toEqual([]);
  });

  it("turns ADMIN and STAFF into roles and the refund threshold into every role's limit", async () => {
    const rolesMigration = "20261127080000_roles";
    // Applied up to just before the roles migration: it and any later one wait in another folder.
    const laterDir = await mkdtemp(path.join(tmpdir(), "migrations-later-"));
    const later = (await readLocalMigrations(migrationsDir)).filter((migration) => migration.name >= rolesMigration);
    expect(later[0]?.name).toBe(rolesMigration);
    for (const { name } of later) await rename(path.join(migrationsDir, name), path.join(laterDir, name));
    await applyMigrations(scratch.target, { migrationsDir });

    await scratch.query(`
      INSERT INTO "User" ("id", "email", "name", "passwordHash", "role", "isActive", "createdAt", "updatedAt") VALUES
        ('00000000-0000-4000-8000-000000000001', 'gone@example.com', 'Gone', 'x', 'ADMIN', false, '2025-01-01', now()),
        ('00000000-0000-4000-8000-000000000002', 'first@example.com', 'First', 'x', 'ADMIN', true, '2026-01-01', now()),
        ('00000000-0000-4000-8000-000000000003', 'second@example.com', 'Second', 'x', 'ADMIN', true, '2026-02-01', now()),
        ('00000000-0000-4000-8000-000000000004', 'staff@example.com', 'Staff', 'x', 'STAFF', true, '2025-06-01', now())`);
    await scratch.query(`
      INSERT INTO "AppSetting" ("key", "value", "updatedAt")
      VALUES ('refundApprovalThresholdCents', '250000'::jsonb, now())`);

    for (const { name } of later) await rename(path.join(laterDir, name), path.join(migrationsDir, name));
    await rm(laterDir, { recursive: true, force: true });
    expect((await applyMigrations(scratch.target, { migrationsDir })).applied).toEqual(later.map(({ name }) => name));

    const users = await scratch.query<{ email: string; roleId: string }>(
      'SELECT "email", "roleId" FROM "User" ORDER BY "email"',
    );
    expect(Object.fromEntries(users.map((user) => [user.email, user.roleId]))).toEqual({
      "first@example.com": "owner",
      "gone@example.com": "administrator",
      "second@example.com": "administrator",
      "staff@example.com": "operations",
    });
    const roles = await scratch.query<{ id: string; refundLimitCents: number; isBuiltIn: boolean }>(
      'SELECT "id", "refundLimitCents", "isBuiltIn" FROM "Role" ORDER BY "id"',
    );
    expect(roles.map((role) => role.id)).toEqual([
      "administrator",
      "analyst",
      "developer",
      "operations",
      "owner",
      "support",
      "viewer",
    ]);
    for (const role of roles) expect(role, role.id).toMatchObject({ refundLimitCents: 250_000, isBuiltIn: true });
    expect(await scratch.query(`SELECT 1 FROM "AppSetting" WHERE "key" = 'refundApprovalThresholdCents'`)).toEqual([]);
  });

  it("refuses to run when the database has a migration the folder lacks", async () => {
    await addMigration("29990101000000_elsewhere", "SELECT 1;");
    await applyMigrations(scratch.target, { migrationsDir });
    await rm(path.join(migrationsDir, "29990101000000_elsewhere"), { recursive: true });
    await expect(applyMigrations(scratch.target, { migrationsDir })).rejects.toThrow(
      /29990101000000_elsewhere is applied to this database but missing/,
    );
  });
});
