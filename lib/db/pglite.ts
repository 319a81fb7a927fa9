import "server-only";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { acquirePgliteLock } from "./pglite-lock";

export type TOpenPglite = { pglite: PGlite; dataDir: string; close: () => Promise<void> };

// `close` flushes and releases the lock; an unclosed PGlite also makes Node exit with code 99.
export function openPgliteDataDir(dataDir: string): TOpenPglite {
  const absoluteDir = path.resolve(dataDir);
  mkdirSync(path.dirname(absoluteDir), { recursive: true });
  const release = acquirePgliteLock(absoluteDir);
  try {
    const pglite = new PGlite(absoluteDir);
    return {
      pglite,
      dataDir: absoluteDir,
      close: async () => {
        try {
          if (!pglite.closed) await pglite.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
