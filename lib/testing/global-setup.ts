import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "@/lib/db/migrate";
import { testCertsDir } from "@/sandbox/test/harness";
import { ensureTestCerts } from "./certs-setup";
import { createThrowawayDatabase, type TThrowawayDatabase } from "./postgres-server";

// One throw-away database per worker (docs/database.md), since files run in parallel.

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrls: string[];
    pgliteSnapshot: string | undefined;
  }
}

// Migrating a new PGlite cluster costs more than loading a migrated one: done once here, not in every file.
async function makePgliteSnapshot(dir: string): Promise<string> {
  const pglite = new PGlite();
  try {
    await applyMigrations({ kind: "pglite", pglite });
    const file = path.join(dir, "migrated.tar");
    await writeFile(file, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
    return file;
  } finally {
    await pglite.close();
  }
}

export default async function setup(project: TestProject) {
  // Made once here, before files that start sandboxes run side by side (each would make its own otherwise).
  await ensureTestCerts(testCertsDir);
  const workers = Math.max(1, project.config.maxWorkers);
  const databases: TThrowawayDatabase[] = [];
  const snapshotDir = await mkdtemp(path.join(tmpdir(), "payments-pglite-snapshot-"));
  const dropAll = async () => {
    await Promise.all(databases.map((database) => database.drop()));
    await rm(snapshotDir, { recursive: true, force: true });
  };
  let snapshot: string;
  try {
    for (let slot = 0; slot < workers; slot++) databases.push(await createThrowawayDatabase("payments_test"));
    [snapshot] = await Promise.all([
      makePgliteSnapshot(snapshotDir),
      ...databases.map((database) => applyMigrations({ kind: "postgres", url: database.url })),
    ]);
  } catch (error) {
    await dropAll();
    throw error;
  }
  process.env.AUTH_SECRET ||= randomBytes(32).toString("base64");
  process.env.WEBHOOK_SECRET_KEY ||= randomBytes(32).toString("base64");
  // As the e2e app: /api/metrics exists, behind its bearer token.
  process.env.METRICS_TOKEN ||= randomBytes(24).toString("hex");
  project.provide(
    "databaseUrls",
    databases.map((database) => database.url),
  );
  project.provide("pgliteSnapshot", snapshot);
  return dropAll;
}
