import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAsSingleInstance } from "@/lib/db/single-instance";
import { pgRunner } from "@/lib/db/sql";
import { testDatabaseUrl } from "@/lib/testing/test-database";
import { freePort } from "@/sandbox/test/harness";
import { pgbouncerBinary, writePgbouncerConfig } from "./pgbouncer-config";

// The statements and locks of lib/db through PgBouncer in transaction mode with two server connections, handed out
// last-used first, so state left on a session shows at once.
describe("through PgBouncer in transaction mode", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "payments-pgbouncer-"));
  let pooler: ReturnType<typeof spawn>;
  let url: string;
  const pools: pg.Pool[] = [];
  const poolOf = () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    pools.push(pool);
    return pool;
  };

  beforeAll(async () => {
    const isRoot = process.getuid?.() === 0;
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"]));
    const config = writePgbouncerConfig({
      dir,
      listenPort: await freePort(),
      databaseUrl: testDatabaseUrl(),
      runAs: isRoot ? { name: "postgres", uid: id("-u"), gid: id("-g") } : undefined,
      poolSize: 2,
    });
    url = config.url;
    pooler = spawn(pgbouncerBinary, config.args, { stdio: "ignore" });
    for (let tries = 0; ; tries++) {
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        break;
      } catch (error) {
        if (tries > 50) throw error;
        await sleep(100);
      } finally {
        await client.end().catch(() => {});
      }
    }
  });

  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    pooler?.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the hot-path SQL as unnamed statements, where named ones collide on the shared server connection", async () => {
    const text = "SELECT $1::int + 1 AS next";
    const [first, second] = [poolOf(), poolOf()];
    expect(await pgRunner(first, false)(text, [1])).toEqual([{ next: 2 }]);
    expect(await pgRunner(second, false)(text, [2])).toEqual([{ next: 3 }]);
    await pgRunner(first, true)(text, [1]);
    await expect(pgRunner(second, true)(text, [1])).rejects.toThrow(/prepared statement .* already exists/);
  });

  it("holds the single-instance lock for its whole run, and frees it after", async () => {
    const connection = { kind: "postgres" as const, url };
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = runAsSingleInstance("pooler-test", () => held, connection);
    await sleep(300);
    expect(await runAsSingleInstance("pooler-test", async () => "second", connection)).toEqual({ isAcquired: false });
    release();
    expect(await first).toEqual({ isAcquired: true, value: undefined });
    expect(await runAsSingleInstance("pooler-test", async () => "third", connection)).toEqual({
      isAcquired: true,
      value: "third",
    });
  });
});
