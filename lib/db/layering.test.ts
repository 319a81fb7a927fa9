import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Transactions and advisory locks belong to lib/db: inTransaction / withTransaction keep the guard that stops the
// global client inside a transaction (PGlite's one connection), and takeTransactionLock / transactionLockSql keep
// every lock keyed the same way. Generated code and tests may use Prisma directly.

const root = path.resolve(import.meta.dirname, "../..");
const codeFile = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const testFile = /\.(test|spec)\.[cm]?[jt]sx?$/;
const skippedDirectories = new Set(["node_modules", "e2e", "testing", "generated"]);
const owner = path.join("lib", "db") + path.sep;
const forbidden = ["$transaction", "pg_advisory_xact_lock"];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".") || skippedDirectories.has(entry.name)) return [];
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return codeFile.test(entry.name) && !testFile.test(entry.name) ? [full] : [];
  });
}

describe("the database layer", () => {
  it("alone opens transactions and takes advisory locks", () => {
    const files = sourceFiles(root).map((file) => path.relative(root, file));
    expect(files).toContain(path.join("lib", "db", "client.ts"));
    const offences = files
      .filter((file) => !file.startsWith(owner))
      .flatMap((file) =>
        readFileSync(path.join(root, file), "utf8")
          .split("\n")
          .flatMap((line, index) =>
            forbidden.filter((word) => line.includes(word)).map((word) => `${file}:${index + 1}: ${word}`),
          ),
      );
    expect(offences).toEqual([]);
  });
});
