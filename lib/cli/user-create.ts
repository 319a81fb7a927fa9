// npm run user:create -- --email a@b.c --role owner [--name N] [--password P]
// Runs under the `react-server` condition so the server-only modules load outside Next.js.
import { parseArgs } from "node:util";
import { z } from "zod";
import { builtInRoleIds, defaultRoleId } from "@/lib/auth/roles";
import { disconnectDb } from "@/lib/db/client";
import messages from "@/lib/i18n/messages/en.json";
import { ZCreateUserInput } from "@/lib/users/schemas";
import { createUser } from "@/lib/users/users";

const usage = `Usage: npm run user:create -- --email a@b.c --role ${builtInRoleIds.join("|")}|<custom role id> [--name "Full Name"] [--password P]`;

// The names from before roles had ids still work.
const legacyRoleIds: Record<string, string> = { ADMIN: "administrator", STAFF: defaultRoleId };

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      role: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
    },
  });
  const email = values.email ?? "";
  const parsed = ZCreateUserInput.safeParse({
    email,
    roleId: values.role ? (legacyRoleIds[values.role.toUpperCase()] ?? values.role.toLowerCase()) : undefined,
    name: values.name ?? email.split("@")[0],
    password: values.password,
  });
  if (!parsed.success) {
    // Schema messages are translation keys; the shell speaks English.
    const errorTexts: Record<string, string> = messages.users.errors;
    const problems = parsed.error.issues
      .map((issue) => `  --${issue.path.join(".")}: ${errorTexts[issue.message] ?? issue.message}`)
      .join("\n");
    console.error(`Invalid arguments:\n${problems}\n${usage}`);
    return 2;
  }
  const { user, oneTimePassword } = await createUser(parsed.data, { actor: null, userAgent: "cli:user-create" });
  console.log(`Created ${user.roleId} ${user.email} (${user.id}).`);
  if (oneTimePassword)
    console.log(`One-time password (shown once; it must be changed at first sign-in): ${oneTimePassword}`);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  const message =
    error instanceof z.ZodError ? z.prettifyError(error) : error instanceof Error ? error.message : String(error);
  console.error(`user:create failed: ${message}`);
  process.exitCode = 1;
} finally {
  await disconnectDb();
}
