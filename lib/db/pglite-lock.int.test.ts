import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openPgliteDataDir, type TOpenPglite } from "./pglite";
import { lockPathFor } from "./pglite-lock";

// A second process must be refused the embedded database while a first one has it open.
const runDbMigrate = (dataDir: string) =>
  promisify(execFile)("node_modules/.bin/tsx", ["--conditions=react-server", "lib/cli/db-migrate.ts"], {
    env: { ...process.env, DATABASE_URL: "", PGLITE_DATA_DIR: dataDir },
  });

describe("PGlite data folder lock", () => {
  let dir: string;
  let dataDir: string;
  let opened: TOpenPglite | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "pglite-lock-"));
    dataDir = path.join(dir, "db");
  });

  afterEach(async () => {
    await opened?.close();
    opened = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it("refuses a second process with a message naming the holder", async () => {
    opened = openPgliteDataDir(dataDir);
    await opened.pglite.waitReady;
    const run = runDbMigrate(dataDir);
    await expect(run).rejects.toMatchObject({ code: 1 });
    const { stderr } = (await run.catch((error: { stderr: string }) => error)) as { stderr: string };
    expect(stderr).toContain(`The embedded database at ${dataDir} is already open in process ${process.pid}`);
    expect(stderr).toContain("PGlite allows one process at a time");
  });

  it("refuses a second open in the same process", () => {
    opened = openPgliteDataDir(dataDir);
    expect(() => openPgliteDataDir(dataDir)).toThrow(/already open/);
  });

  it("takes over a stale lock left by a process that is gone, and releases it on close", async () => {
    const deadPid = spawnSync(process.execPath, ["-e", ""]).pid;
    await writeFile(lockPathFor(dataDir), JSON.stringify({ pid: deadPid, hostname: hostname() }));
    const { stdout } = await runDbMigrate(dataDir);
    expect(stdout).toMatch(/db:migrate: embedded PGlite at .*: \d+ migration\(s\) applied/);
    opened = openPgliteDataDir(dataDir);
    await opened.close();
    opened = openPgliteDataDir(dataDir);
  });
});
