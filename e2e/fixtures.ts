import { randomInt } from "node:crypto";
import { readFileSync } from "node:fs";
import { test as base } from "@playwright/test";
import { seedFile, storageStateFile, type TDatabase, type TRole, type TSeed, type TTestUser } from "./targets";

export type { TTestUser as TestUser } from "./targets";

export type TTestOptions = {
  /** Opens the test's browser signed in as this role (the session auth.setup.ts saved); signed out when unset. */
  role: TRole | undefined;
};

export type TWorkerOptions = {
  /** Which configuration the project runs against (e2e/targets.ts); set per project in the config. */
  database: TDatabase;
};

type TestFixtures = {
  /** The users seeded for this run (e2e/servers/app.ts), by name: admin, staff, signin, locked. */
  users: TSeed["users"];
  admin: TTestUser;
  staff: TTestUser;
  /** The run's PostgreSQL database, for specs that check what the app stored; null on PGlite. */
  databaseUrl: string | null;
};

export const test = base.extend<TTestOptions & TestFixtures, TWorkerOptions & { seed: TSeed }>({
  database: ["postgres", { option: true, scope: "worker" }],
  seed: [
    async ({ database }, use) => use(JSON.parse(readFileSync(seedFile(database), "utf8")) as TSeed),
    { scope: "worker" },
  ],
  role: [undefined, { option: true }],
  // One client address per test, from the benchmarking range 198.18.0.0/15 (the app trusts one proxy hop here).
  extraHTTPHeaders: async ({ database: _database }, use) =>
    use({ "x-forwarded-for": `198.18.${randomInt(256)}.${randomInt(1, 255)}` }),
  storageState: async ({ role, database }, use) => use(role ? storageStateFile(database, role) : undefined),
  users: async ({ seed }, use) => use(seed.users),
  admin: async ({ seed }, use) => use(seed.users.admin),
  staff: async ({ seed }, use) => use(seed.users.staff),
  databaseUrl: async ({ seed }, use) => use(seed.databaseUrl),
});

// A browser context with no session, for the payer or a user signing in, beside a signed-in page.
export const signedOut = { storageState: { cookies: [], origins: [] } };

export { expect } from "@playwright/test";
