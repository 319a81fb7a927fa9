import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromium } from "../playwright.config";
import { rootDir } from "../targets";
import { clusterPorts } from "./state";

// The production topology end to end (`npm test` runs it after the main suite; alone:
// `npx playwright test -c e2e/cluster/playwright.config.ts`): nginx in front of two `next start` instances, two
// workers and the sandbox on one PostgreSQL database, started by e2e/servers/cluster.ts. Specs are `*.cluster.ts`,
// so the main config does not pick them up.

const { proxyPort } = clusterPorts();

export default defineConfig({
  testDir: ".",
  testMatch: /\.cluster\.ts$/,
  outputDir: "../.results/cluster",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "../.results/cluster-report.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${proxyPort}`,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: chromium,
  },
  webServer: {
    name: "cluster",
    command: "tsx --conditions=react-server e2e/servers/cluster.ts",
    cwd: rootDir,
    env: { PATH: `${path.join(rootDir, "node_modules/.bin")}${path.delimiter}${process.env.PATH}` },
    url: `http://127.0.0.1:${proxyPort}/api/health`,
    // Builds first when the build is stale (the main suite has usually just made it).
    timeout: 15 * 60_000,
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
  },
});
