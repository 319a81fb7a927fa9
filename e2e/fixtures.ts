import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { test as base } from "@playwright/test";

const run = promisify(execFile);

export type TestUser = { email: string; password: string; name: string; role: "ADMIN" | "STAFF" };

// Users are made through the same CLI a merchant's operator uses, against the test run's
// database (DATABASE_URL comes from lib/cli/test.ts), so every test starts from its own data.
export async function createUser(role: TestUser["role"], label = role.toLowerCase()): Promise<TestUser> {
  const email = `${label}-${randomBytes(4).toString("hex")}@e2e.test`;
  const password = `e2e-${randomBytes(9).toString("base64url")}`;
  const name = `${label} ${email.slice(label.length + 1, label.length + 5)}`;
  await run(
    "npm",
    ["run", "-s", "user:create", "--", "--email", email, "--role", role, "--name", name, "--password", password],
    {
      env: process.env,
    },
  );
  return { email, password, name, role };
}

export const test = base.extend<{ admin: TestUser; staff: TestUser }>({
  admin: async ({}, use) => use(await createUser("ADMIN")),
  staff: async ({}, use) => use(await createUser("STAFF")),
});

export { expect } from "@playwright/test";
