import { defineConfig, devices } from "@playwright/test";

// The app and the sandbox are started by `lib/cli/test.ts` (or by you, see e2e/README.md)
// before Playwright runs: it passes their URLs and the throw-away database in the environment.
const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3100";

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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

export default defineConfig({
  testDir: ".",
  outputDir: "./.results",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "./.results/report.json" }]],
  use: {
    baseURL,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: chromium,
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], launchOptions: chromium } },
    // Payers open links on phones: the link and hosted-page specs run again on a phone-sized Chromium.
    { name: "mobile", testMatch: /(links|pay-.*)\.spec\.ts$/, use: { ...devices["Pixel 7"], launchOptions: chromium } },
  ],
});
