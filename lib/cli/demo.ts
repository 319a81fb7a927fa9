// `npm run demo`: the gateway sandbox and the dashboard on the embedded database; local state lives in .data/.
import "./load-env";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { disconnectDb } from "@/lib/db/client";
import { createUser, listUsers } from "@/lib/users/users";
import { ensureOwnWebhook } from "@/lib/webhooks/subscriptions";
import { needsBuild } from "./build-freshness";
import { seedDemoHistory } from "./demo-history";
import { ensureDemoPos } from "./demo-pos";
import { runCommand, startService, stopAll, type TService, waitForHttp, waitForPort } from "./processes";
import { makeIndependentApprover } from "./seed-approver";

const demoDir = path.resolve(".data/demo");
const port = Number(process.env.PORT ?? 3000);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 8443);
// By name: browsers refuse passkeys (WebAuthn) on an IP address; the server still listens on 127.0.0.1.
const appUrl = process.env.APP_URL ?? `http://localhost:${port}`;

type DemoAdmin = { email: string; password: string };

function readOrCreate<T>(file: string, create: () => T): T {
  const fullPath = path.join(demoDir, file);
  if (existsSync(fullPath)) return JSON.parse(readFileSync(fullPath, "utf8")) as T;
  const value = create();
  mkdirSync(demoDir, { recursive: true });
  writeFileSync(fullPath, JSON.stringify(value, null, 2), { mode: 0o600 });
  return value;
}

async function must(step: string, command: string, args: string[]) {
  console.log(`\n==> ${step}`);
  const code = await runCommand(command, args);
  if (code !== 0) throw new Error(`${step} failed (exit code ${code})`);
}

async function ensureDemoAdmin(): Promise<DemoAdmin> {
  const admin = readOrCreate<DemoAdmin>("admin.json", () => ({
    email: "admin@demo.local",
    password: randomBytes(12).toString("base64url"),
  }));
  const users = await listUsers();
  if (!users.some((user) => user.email === admin.email)) {
    await createUser(
      { email: admin.email, name: "Demo Admin", roleId: "owner", password: admin.password },
      { actor: null, userAgent: "cli:demo" },
    );
  }
  return admin;
}

type DemoApprover = DemoAdmin & { totpSecret: string | null };

// Its secret is printed once for an authenticator app, and kept beside its password.
async function ensureDemoApprover(): Promise<DemoApprover> {
  const approver = readOrCreate<DemoApprover>("approver.json", () => ({
    email: "approver@demo.local",
    password: randomBytes(12).toString("base64url"),
    totpSecret: null,
  }));
  const users = await listUsers();
  if (!users.some((user) => user.email === approver.email)) {
    const { user } = await createUser(
      { email: approver.email, name: "Demo Approver", roleId: "administrator", password: approver.password },
      { actor: null, userAgent: "cli:demo" },
    );
    approver.totpSecret = await makeIndependentApprover(user);
    writeFileSync(path.join(demoDir, "approver.json"), JSON.stringify(approver, null, 2), { mode: 0o600 });
  }
  return approver;
}

async function ensureDemoWebhook() {
  const url = await ensureOwnWebhook({ actor: null, userAgent: "cli:demo" });
  if (url) console.log(`Registered the dashboard's webhook receiver at the sandbox: ${url}`);
}

// The POS seed (docs/pos.md "Demo") must not keep the dashboard from starting.
async function ensureDemoPosOrWarn() {
  try {
    return await ensureDemoPos(appUrl);
  } catch (error) {
    console.warn(`The POS demo data could not be seeded: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

// Like the POS seed, a failed history must not keep the dashboard from starting.
async function ensureDemoHistoryOrWarn(pos: { apiKey: string; posIds: string[] }) {
  try {
    const { status, history } = await seedDemoHistory({ appUrl, pos });
    if (status === "already")
      console.log(`\n==> History: seeded on ${history.seededAt} (${history.resources} resources); nothing to add`);
    else
      console.log(
        `    seeded ${history.resources} resources in ${(history.durationMs / 1000).toFixed(1)} s: ${JSON.stringify(history.counts)}`,
      );
  } catch (error) {
    console.warn(`The demo history could not be seeded: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function main() {
  const secrets = readOrCreate("secrets.json", () => ({ AUTH_SECRET: randomBytes(32).toString("base64") }));
  process.env.AUTH_SECRET ??= secrets.AUTH_SECRET;
  // Its own file, so demo folders made before webhooks existed get a key too.
  const webhookKey = readOrCreate("webhook-secret-key.json", () => ({
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
  }));
  process.env.WEBHOOK_SECRET_KEY ??= webhookKey.WEBHOOK_SECRET_KEY;

  await must("Certificates for the sandbox and the dashboard (npm run certs)", "npm", ["run", "-s", "certs"]);
  await must("Database migrations (npm run db:migrate)", "npm", ["run", "-s", "db:migrate"]);

  if (needsBuild()) {
    await must("Production build of the dashboard (next build; a few minutes the first time)", "next", ["build"]);
  }

  console.log("\n==> Starting the sandbox, then the dashboard");
  const env = {
    AUTH_SECRET: process.env.AUTH_SECRET,
    WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY,
    APP_URL: appUrl,
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    GATEWAY_BASE_URL: `https://127.0.0.1:${sandboxPort}`,
    SANDBOX_LINK_BASE_URL: `${appUrl}/pay/`,
    // `next start` runs as production, whose guard refuses http and the local sandbox unless told.
    ALLOW_INSECURE_LOCAL_GATEWAY: "1",
  };
  Object.assign(process.env, env);
  const exitWithService = (service: TService) =>
    service.child.once("exit", (code) => {
      console.error(`\n${service.name} stopped (exit code ${code}); stopping the demo.`);
      void stopAll().then(() => process.exit(1));
    });
  const sandbox = startService("sandbox", "tsx", ["sandbox/main.ts"], { env });
  exitWithService(sandbox);
  await waitForPort(sandbox, sandboxPort);
  const admin = await ensureDemoAdmin();
  const approver = await ensureDemoApprover();
  await ensureDemoWebhook();
  const pos = await ensureDemoPosOrWarn();
  if (pos) await ensureDemoHistoryOrWarn(pos);
  // PGlite admits one process at a time: let go before the dashboard starts.
  await disconnectDb();
  const app = startService("dashboard", "next", ["start", "--hostname", "127.0.0.1", "--port", String(port)], { env });
  exitWithService(app);
  await waitForHttp(app, `${appUrl}/api/health`);

  console.log(`
  ┌──────────────────────────────────────────────────────────────
  │ Dashboard:  ${appUrl}
  │ Sign in:    ${admin.email}
  │ Password:   ${admin.password}   (kept in .data/demo/admin.json)
  │ Approver:   ${approver.email} · ${approver.password} · authenticator key ${approver.totpSecret ?? "(see .data/demo/approver.json)"}
  │             a second admin for approvals: add the key to an authenticator app (kept in .data/demo/approver.json)
  │ E-mail:     ${process.env.SMTP_URL ? "sent through SMTP_URL" : `no SMTP_URL: invitations and resets wait in ${appUrl}/settings/outbox`}
  │ Sandbox:    https://127.0.0.1:${sandboxPort}  (mTLS; certificates in .data/certs)
  │ POS /v1:    ${pos ? `key, PDV ${pos.posId} and seller-token secret in .data/demo/pos.json` : "not seeded (see above)"}
  │             npm run pos:seller-token -- --seller ${pos?.sellerReference ?? "<reference>"} · npm run pos:simulate
  │ Stop with Ctrl+C.
  └──────────────────────────────────────────────────────────────
`);
}

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => void stopAll().then(() => process.exit(0)));

main().catch(async (error: unknown) => {
  console.error(`\nThe demo could not start: ${error instanceof Error ? error.message : String(error)}`);
  await stopAll();
  process.exit(1);
});
