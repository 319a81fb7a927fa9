import { existsSync } from "node:fs";
import path from "node:path";
import { defineConfig, devices, type PlaywrightTestConfig, type Project } from "@playwright/test";
import type { TTestOptions, TWorkerOptions } from "./fixtures";
import { mailboxPorts, oidcProvider, rootDir, selectedTargets, type TTarget } from "./targets";

// Runs on its own (`npx playwright test -c e2e/playwright.config.ts`, see e2e/README.md): the
// webServer list below builds the app when stale and starts, per target, a sandbox and the app on
// a fresh database with its users seeded. Targets: PostgreSQL runs every spec (desktop, and the
// payer's specs on a phone); the embedded PGlite database, the default configuration, runs the
// money paths (tagged @money) and the ways a team signs in and is told things (tagged @embedded).

// Debian's headless shell (package chromium-headless-shell: the same Chromium build without the browser's UI layer,
// what Playwright itself runs headless) when installed: the suite spends about a quarter less CPU in it than in the
// full browser. The full browser (package chromium) otherwise.
const headlessShell = "/usr/lib/chromium/chromium-headless-shell";

export const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : "/usr/bin/chromium"),
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
  ],
};

const targets = selectedTargets();
// The launchers run with Node 24 from node_modules/.bin, whatever `node` the shell has.
const env = { PATH: `${path.join(rootDir, "node_modules/.bin")}${path.delimiter}${process.env.PATH}` };

// Started one after another, in this order: each app registers at and talks to its own sandbox.
function webServers(target: TTarget, index: number): NonNullable<PlaywrightTestConfig["webServer"]> {
  const stop = { gracefulShutdown: { signal: "SIGTERM" as const, timeout: 20_000 } };
  const isFirstApp = index === 0;
  return [
    {
      name: `sandbox-${target.database}`,
      command: `tsx e2e/servers/sandbox.ts ${target.database}`,
      cwd: rootDir,
      env,
      // mTLS refuses a client without a certificate: an accepted connection is the readiness signal.
      port: target.sandboxPort,
      timeout: 60_000,
      ...stop,
    },
    {
      name: `app-${target.database}`,
      command: `tsx --conditions=react-server e2e/servers/app.ts ${target.database}${isFirstApp ? " --build" : ""}`,
      cwd: rootDir,
      env,
      url: `${target.appUrl}/api/health`,
      // The first app builds the dashboard when the build is stale.
      timeout: isFirstApp ? 15 * 60_000 : 3 * 60_000,
      ...stop,
    },
  ];
}

// webhooks.spec.ts reads what one of its webhooks received, which includes every other spec's Pix events while it is
// registered: with two workers it runs in a project of its own, once the target's other desktop specs are done.
const afterOthers = /webhooks\.spec\.ts$/;
// metrics.spec.ts counts every Pix charge the app creates while it runs: it comes last, alone.
const lastAlone = /metrics\.spec\.ts$/;
const embeddedTags = /@money|@embedded/;

function projects(target: TTarget): Project<TTestOptions, TWorkerOptions>[] {
  const use = { baseURL: target.appUrl, database: target.database, launchOptions: chromium };
  const desktop = { ...devices["Desktop Chrome"], ...use };
  const setup = `setup-${target.database}`;
  const setupProject = { name: setup, testMatch: /auth\.setup\.ts$/, use: desktop };
  if (target.database === "pglite") {
    // Signed in once, its sessions idle out after 15 minutes (lib/auth/session-activity.ts): when PostgreSQL's desktop
    // specs run too, the embedded target signs in after them, right before its own specs.
    const afterDesktop = targets.some((other) => other.database === "postgres") ? ["desktop"] : [];
    return [
      { ...setupProject, dependencies: afterDesktop },
      { name: "pglite", dependencies: [setup], grep: embeddedTags, testIgnore: afterOthers, use: desktop },
      { name: "pglite-webhooks", dependencies: ["pglite"], grep: embeddedTags, testMatch: afterOthers, use: desktop },
    ];
  }
  return [
    setupProject,
    { name: "desktop", dependencies: [setup], testIgnore: [afterOthers, lastAlone], use: desktop },
    { name: "desktop-webhooks", dependencies: ["desktop"], testMatch: afterOthers, use: desktop },
    { name: "desktop-metrics", dependencies: ["desktop-webhooks"], testMatch: lastAlone, use: desktop },
    // Payers open links on phones: the link and hosted-page specs run again on a phone-sized Chromium.
    {
      name: "mobile",
      dependencies: [setup],
      testMatch: /(links|pay-.*)\.spec\.ts$/,
      use: { ...devices["Pixel 7"], ...use },
    },
  ];
}

// Before the apps, which send every e-mail to it (e2e/mailbox.ts reads what arrived).
const mailbox: NonNullable<PlaywrightTestConfig["webServer"]> = {
  name: "mailbox",
  command: "tsx e2e/servers/mailbox.ts",
  cwd: rootDir,
  env,
  url: `http://127.0.0.1:${mailboxPorts().http}/health`,
  timeout: 30_000,
  gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
};

// The identity provider of sso.spec.ts, shared by both apps like the mailbox.
const oidc: NonNullable<PlaywrightTestConfig["webServer"]> = {
  name: "oidc",
  command: "tsx e2e/servers/oidc.ts",
  cwd: rootDir,
  env,
  url: `${oidcProvider().issuer}/.well-known/openid-configuration`,
  timeout: 30_000,
  gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
};

export default defineConfig<TTestOptions, TWorkerOptions>({
  testDir: ".",
  outputDir: "./.results",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two spec files at a time (a file's tests stay in order, in one worker): the specs share each target's app and
  // sandbox but not data (own charges, links, users; per-test client addresses), and approvals.spec.ts's lowered
  // threshold is above what any other spec refunds. E2E_WORKERS=1 runs one at a time.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS) || 2,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "./.results/report.json" }]],
  use: {
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  webServer: [mailbox, oidc, ...targets.flatMap(webServers)],
  projects: targets.flatMap(projects),
});
