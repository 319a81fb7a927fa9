import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const alias = {
  "@": root,
  "server-only": fileURLToPath(new URL("./lib/testing/server-only-stub.ts", import.meta.url)),
};

// Three kinds of tests:
// - unit: pure modules, beside their code (`*.test.ts`);
// - sandbox: contract tests of the gateway simulator, each starting its own sandbox over mTLS;
// - integration: the app's server code against real PostgreSQL (a throw-away database per worker) and PGlite.
// Files of all three run side by side, in one pool: each sandbox file starts its own sandboxes (own ports, data
// dirs), each integration worker has its own database. Even a 2-core machine runs two files at a time (Vitest's
// default there would be one), so one file's waits on sockets and child processes leave the other core working.
export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "sandbox",
          include: ["sandbox/**/*.test.ts"],
          environment: "node",
          globalSetup: ["lib/testing/certs-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // What crosses a socket or a process may be slow on a busy CI machine; 1 s is the default.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["**/*.int.test.ts"],
          exclude: ["node_modules/**"],
          environment: "node",
          globalSetup: ["lib/testing/global-setup.ts"],
          setupFiles: ["lib/testing/integration-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
