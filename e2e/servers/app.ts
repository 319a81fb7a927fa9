// `tsx --conditions=react-server e2e/servers/app.ts postgres|pglite [--build]`: the dashboard of one
// e2e target, started by Playwright's webServer after that target's sandbox (e2e/playwright.config.ts).
// It builds when asked and the build is stale, migrates a fresh database, seeds the test users in one
// step (PGlite admits one process, so this happens before the app opens it), and on PGlite registers
// the app's own webhook receiver at the sandbox as `npm run demo` does. Then `next start` runs until
// Playwright stops it; a PostgreSQL database is dropped on the way out.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { needsBuild } from "@/lib/cli/build-freshness";
import { keepAliveUntilStopped, runCommand, startService } from "@/lib/cli/processes";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import {
  authDir,
  dataDir,
  e2eMetricsToken,
  logsDir,
  mailboxPorts,
  parseDatabase,
  seededUsers,
  seedFile,
  type TSeed,
  type TSeededUser,
  type TTestUser,
  targetOf,
} from "../targets";

const target = targetOf(parseDatabase(process.argv[2]));
const isBuildAsked = process.argv.includes("--build");
const logFile = path.join(logsDir, `app-${target.database}.log`);

function step(message: string) {
  writeFileSync(logFile, `[e2e] ${message}\n`, { flag: "a" });
}

async function buildWhenStale() {
  const isForced = process.env.E2E_BUILD === "1";
  if (process.env.E2E_SKIP_BUILD === "1" || (!isForced && !needsBuild())) return;
  const buildLog = path.join(logsDir, "build.log");
  writeFileSync(buildLog, "");
  console.error(`Building the app (next build, a few minutes); output in ${path.relative(process.cwd(), buildLog)}`);
  const code = await runCommand("next", ["build"], undefined, { logFile: buildLog });
  if (code !== 0) throw new Error(`next build failed (exit code ${code}); see ${buildLog}`);
}

// Variables of the app process; set here too so the seeding below talks to the same database.
async function prepareDatabase(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  if (target.database === "postgres") {
    const database = await createThrowawayDatabase("payments_e2e");
    return { env: { DATABASE_URL: database.url }, drop: database.drop };
  }
  const pgliteDir = path.join(dataDir, "pglite");
  rmSync(pgliteDir, { recursive: true, force: true });
  // An empty DATABASE_URL counts as unset, and keeps one from a developer's .env out of the app.
  return { env: { DATABASE_URL: "", PGLITE_DATA_DIR: pgliteDir }, drop: async () => {} };
}

async function migrate() {
  const { applyMigrations } = await import("@/lib/db/migrate");
  const url = process.env.DATABASE_URL;
  if (url) {
    await applyMigrations({ kind: "postgres", url });
    return;
  }
  const { openPgliteDataDir } = await import("@/lib/db/pglite");
  const embedded = openPgliteDataDir(process.env.PGLITE_DATA_DIR!);
  try {
    await applyMigrations({ kind: "pglite", pglite: embedded.pglite });
  } finally {
    await embedded.close();
  }
}

// One custom role and person per identity of the route matrix, signed in by a minted session token: the matrix spec
// asks every page as each of them without a sign-in form per permission.
const runLengthMs = 4 * 60 * 60_000;

// Every alert rule starts muted: an incident that other specs cause (card refusals, drift) would mail the people they
// invite and count mail for. e2e/alerts.spec.ts unmutes the one it tests for its own run and mutes it again.
async function muteAlertRules(): Promise<void> {
  const { db } = await import("@/lib/db/client");
  const { alertRuleKeys } = await import("@/lib/alerts/rule-keys");
  const mutedUntil = new Date("9999-12-31T00:00:00Z");
  await db.alertRuleSetting.createMany({
    data: alertRuleKeys.map((ruleKey) => ({ ruleKey, thresholds: {}, mutedUntil })),
  });
}

async function seedMatrixSessions(): Promise<TSeed["sessions"]> {
  const { db } = await import("@/lib/db/client");
  const { encode } = await import("next-auth/jwt");
  const { matrixIdentities } = await import("@/lib/auth/route-matrix");
  const sessions: TSeed["sessions"] = {};
  for (const identity of matrixIdentities) {
    if (!identity.permissions) continue;
    const role = await db.role.create({
      data: {
        id: randomUUID(),
        name: `Matrix ${matrixIdentities.indexOf(identity)}`,
        permissions: [...identity.permissions],
      },
    });
    const user = await db.user.create({
      data: { email: `matrix-${randomUUID()}@e2e.test`, name: role.name!, passwordHash: "x", roleId: role.id },
    });
    const sid = randomUUID();
    // Seen "later" than the run's start: a session idles out after 15 minutes, and the matrix spec may run after that.
    await db.sessionActivity.create({
      data: { id: sid, userId: user.id, lastSeenAt: new Date(Date.now() + runLengthMs) },
    });
    const token = { sub: user.id, sid, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
    sessions[identity.name] = await encode({ token, secret: process.env.AUTH_SECRET! });
  }
  return sessions;
}

async function seedUsers(): Promise<TSeed["users"]> {
  const { createUser } = await import("@/lib/users/users");
  // The independent second admin approvals need (lib/auth/independent-approver.ts).
  const { makeIndependentApprover } = await import("@/lib/cli/seed-approver");
  const entries = Object.entries(seededUsers) as [TSeededUser, string][];
  const users = await Promise.all(
    entries.map(async ([key, roleId]) => {
      const user: TTestUser = {
        email: `${key}@e2e.test`,
        password: `e2e-${randomBytes(9).toString("base64url")}`,
        name: `E2E ${key[0]!.toUpperCase()}${key.slice(1)}`,
        roleId,
      };
      const { user: created } = await createUser(user, { actor: null, userAgent: "e2e:seed" });
      if (key === "approver") user.totpSecret = await makeIndependentApprover(created);
      return [key, user] as const;
    }),
  );
  return Object.fromEntries(users) as TSeed["users"];
}

// As the demo does, so payments reach the app pushed and signed.
async function registerOwnWebhook() {
  const { ensureOwnWebhook } = await import("@/lib/webhooks/subscriptions");
  await ensureOwnWebhook({ actor: null, userAgent: "e2e:seed" });
}

async function main() {
  mkdirSync(logsDir, { recursive: true });
  writeFileSync(logFile, "");
  rmSync(authDir(target.database), { recursive: true, force: true });
  mkdirSync(authDir(target.database), { recursive: true });
  if (isBuildAsked) await buildWhenStale();

  const database = await prepareDatabase();
  const env: Record<string, string> = {
    ...database.env,
    AUTH_SECRET: randomBytes(32).toString("base64"),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
    APP_URL: target.appUrl,
    PORT: String(target.appPort),
    LOG_LEVEL: "info",
    GATEWAY_BASE_URL: target.sandboxUrl,
    // A production build against the local sandbox over http: the production guard's opt-out.
    ALLOW_INSECURE_LOCAL_GATEWAY: "1",
    // As behind one proxy: every test's browser arrives from its own address (X-Forwarded-For, e2e/fixtures.ts), so
    // the per-address limits (card refusals, codes, sign-in) count per test, not across the whole run.
    TRUSTED_PROXY_HOPS: "1",
    // The loopback mailbox (e2e/servers/mailbox.ts), shared by both targets; tests tell mail apart by recipient.
    SMTP_URL: `smtp://127.0.0.1:${mailboxPorts().smtp}`,
    MAIL_FROM: "Painel E2E <no-reply@e2e.test>",
    // Alert rules every 2 seconds instead of every minute, so e2e/alerts.spec.ts sees incidents open and resolve soon.
    ALERTS_EVALUATE_INTERVAL_SECONDS: "2",
    METRICS_TOKEN: e2eMetricsToken,
  };
  Object.assign(process.env, env);
  try {
    step(`migrating the ${target.database} database`);
    await migrate();
    step("seeding the test users");
    const users = await seedUsers();
    const sessions = await seedMatrixSessions();
    await muteAlertRules();
    if (target.database === "pglite") {
      step("registering the app's webhook receiver at the sandbox");
      await registerOwnWebhook();
    }
    const { disconnectDb } = await import("@/lib/db/client");
    await disconnectDb();
    const seed: TSeed = { databaseUrl: env.DATABASE_URL || null, users, sessions };
    writeFileSync(seedFile(target.database), JSON.stringify(seed, null, 2), { mode: 0o600 });
  } catch (error) {
    await database.drop();
    throw error;
  }

  step(`next start on ${target.appUrl}`);
  const app = startService(
    `app-${target.database}`,
    "next",
    ["start", "--hostname", "127.0.0.1", "--port", String(target.appPort)],
    { env, logFile, detached: false },
  );
  keepAliveUntilStopped(app, database.drop);
}

main().catch((error: unknown) => {
  console.error(`e2e app (${target.database}) could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
