import "server-only";
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";

// Two processes writing one PGlite folder corrupt it: the first writes `<folder>.lock` with its pid, and a lock
// whose process is gone (crash, kill -9) is taken over.
class PgliteLockedError extends Error {
  constructor(dataDir: string, holder: LockOwner) {
    super(
      `The embedded database at ${dataDir} is already open in process ${holder.pid} (${holder.command ?? "unknown command"}). ` +
        "PGlite allows one process at a time: stop that process (for example the running dev server) and try again, " +
        "or set DATABASE_URL to use PostgreSQL, which any number of processes can share.",
    );
    this.name = "PgliteLockedError";
  }
}

type LockOwner = { pid: number; hostname: string; command?: string };

const lockCache = globalThis as { __pgliteLocks?: Set<string> };
lockCache.__pgliteLocks ??= new Set();
const heldLocks: Set<string> = lockCache.__pgliteLocks;

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(lockPath, "utf8")) as LockOwner;
  } catch {
    return undefined;
  }
}

function isStale(lockPath: string, owner: LockOwner | undefined): boolean {
  if (!owner || typeof owner.pid !== "number") return true;
  // A lock from another machine (a shared volume) cannot be checked, so it is respected.
  if (owner.hostname !== hostname()) return false;
  // Our own pid without our own record: left by an earlier process that had the same pid.
  if (owner.pid === process.pid) return !heldLocks.has(lockPath);
  return !isProcessAlive(owner.pid);
}

export function lockPathFor(dataDir: string): string {
  return `${dataDir.replace(/[/\\]+$/, "")}.lock`;
}

export function acquirePgliteLock(dataDir: string): () => void {
  const lockPath = lockPathFor(dataDir);
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    command: process.argv.slice(1).join(" ").slice(0, 200),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, JSON.stringify(owner));
      closeSync(fd);
      heldLocks.add(lockPath);
      const release = () => {
        if (!heldLocks.delete(lockPath)) return;
        rmSync(lockPath, { force: true });
        process.off("exit", release);
      };
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readOwner(lockPath);
      if (!isStale(lockPath, holder)) throw new PgliteLockedError(dataDir, holder ?? { pid: -1, hostname: "" });
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}: another process keeps creating ${lockPath}.`);
}
