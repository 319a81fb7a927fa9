import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

const root = process.cwd();
export const schemaPath = path.join(root, "prisma", "schema.prisma");
export const migrationsDir = path.join(root, "prisma", "migrations");
const configPath = path.join(root, "prisma", "prisma6.config.ts");
const prisma6Cli = path.join(
  path.dirname(createRequire(import.meta.url).resolve("prisma6/package.json")),
  "build",
  "index.js",
);

export type TSchemaDiff = { hasChanges: boolean; sql: string };

// Prisma 6 insists on a datasource URL in the schema even though the engine reaches the
// database through the adapter; Prisma 7 forbids it there, so the diff reads a copy.
async function writeSchemaCopy(dir: string): Promise<string> {
  const schema = await readFile(schemaPath, "utf8");
  const withUrl = schema.replace(/(datasource\s+\w+\s*\{)/, '$1\n  url = "postgresql://offline.invalid/unused"');
  const copyPath = path.join(dir, "schema.prisma");
  await writeFile(copyPath, withUrl);
  return copyPath;
}

function runPrisma6(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // Pointing the native engine overrides at any existing file skips their download; the WASM engine does the work.
  const anyExistingFile = path.join(root, "package.json");
  const env = {
    ...process.env,
    PRISMA_QUERY_ENGINE_LIBRARY: anyExistingFile,
    PRISMA_SCHEMA_ENGINE_BINARY: anyExistingFile,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [prisma6Cli, ...args], { cwd: root, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

export async function diffMigrationsToSchema(): Promise<TSchemaDiff> {
  const dir = await mkdtemp(path.join(tmpdir(), "payments-schema-diff-"));
  try {
    const schemaCopy = await writeSchemaCopy(dir);
    const result = await runPrisma6([
      "migrate",
      "diff",
      "--config",
      configPath,
      "--from-migrations",
      migrationsDir,
      "--to-schema-datamodel",
      schemaCopy,
      "--script",
      "--exit-code",
    ]);
    // With --exit-code: 0 = no difference, 2 = difference, anything else = failure.
    if (result.code === 0) return { hasChanges: false, sql: "" };
    if (result.code === 2) return { hasChanges: true, sql: result.stdout.trim() + "\n" };
    throw new Error(
      `prisma migrate diff failed (exit code ${result.code}):\n${result.stderr.trim() || result.stdout.trim()}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
