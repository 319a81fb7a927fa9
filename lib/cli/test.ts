// `npm test`: every test of the project, cheapest failures first, then one summary line.
//   1. typecheck and schema/migration drift;
//   2. Vitest: unit, sandbox contract (real mTLS) and integration (real PostgreSQL + PGlite);
//   3. Playwright against a production build of the dashboard, the real sandbox and a
//      throw-away PostgreSQL database.
// `npm test -- --only=vitest` or `--only=e2e` runs one part; extra args go to that runner.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import { runCommand, startService, stopAll, waitForHttp, waitForPort } from "./processes";

type Counts = { passed: number; failed: number; skipped: number };
type StepResult = { name: string; ok: boolean; counts?: Counts };

const root = process.cwd();
const logsDir = path.join(root, "e2e/.logs");
const args = process.argv.slice(2);
const only = args.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
const passThrough = args.filter((arg) => !arg.startsWith("--only="));

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

async function runChecks(): Promise<StepResult[]> {
  console.log("\n==> Typecheck (tsc --noEmit)");
  const typecheck = await runCommand("tsc", ["--noEmit"]);
  console.log("\n==> Lint and format (biome check)");
  const lint = await runCommand("biome", ["check", "--reporter=summary", "."]);
  console.log("\n==> Schema and migrations agree (npm run db:check)");
  const drift = await runCommand("npm", ["run", "-s", "db:check"]);
  return [
    { name: "typecheck", ok: typecheck === 0 },
    { name: "lint", ok: lint === 0 },
    { name: "db:check", ok: drift === 0 },
  ];
}

async function runVitest(): Promise<StepResult> {
  console.log("\n==> Vitest: unit, sandbox, integration");
  const report = path.join(tmpdir(), `vitest-${randomBytes(4).toString("hex")}.json`);
  const code = await runCommand("vitest", [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...passThrough,
  ]);
  const json = readJson<{
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  }>(report);
  rmSync(report, { force: true });
  const counts = json
    ? { passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests }
    : undefined;
  return { name: "vitest", ok: code === 0 && counts !== undefined, counts };
}

async function runPlaywright(): Promise<StepResult> {
  console.log("\n==> Playwright: production build, sandbox, throw-away database");
  mkdirSync(logsDir, { recursive: true });
  const appPort = Number(process.env.E2E_PORT ?? 3100);
  const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? 8543);
  const appUrl = `http://127.0.0.1:${appPort}`;
  const database = await createThrowawayDatabase("payments_e2e");
  const sandboxDataDir = mkdtempSync(path.join(tmpdir(), "sandbox-e2e-"));
  try {
    const migrated = await runCommand("npm", ["run", "-s", "db:migrate"], { DATABASE_URL: database.url });
    if (migrated !== 0) return { name: "playwright", ok: false };
    if (process.env.E2E_SKIP_BUILD !== "1" || !existsSync(".next/BUILD_ID")) {
      const built = await runCommand("next", ["build"]);
      if (built !== 0) return { name: "playwright", ok: false };
    }
    const env = {
      DATABASE_URL: database.url,
      AUTH_SECRET: randomBytes(32).toString("base64"),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      APP_URL: appUrl,
      PORT: String(appPort),
      LOG_LEVEL: "info",
      SANDBOX_PORT: String(sandboxPort),
      GATEWAY_BASE_URL: `https://127.0.0.1:${sandboxPort}`,
      SANDBOX_DATA_DIR: sandboxDataDir,
      SANDBOX_LINK_BASE_URL: `${appUrl}/pay/`,
      E2E_BASE_URL: appUrl,
      E2E_SANDBOX_URL: `https://127.0.0.1:${sandboxPort}`,
    };
    const sandbox = startService("sandbox", "tsx", ["sandbox/main.ts"], {
      env,
      logFile: path.join(logsDir, "sandbox.log"),
    });
    const app = startService("app", "next", ["start", "--hostname", "127.0.0.1", "--port", String(appPort)], {
      env,
      logFile: path.join(logsDir, "app.log"),
    });
    await Promise.all([waitForPort(sandbox, sandboxPort), waitForHttp(app, `${appUrl}/api/health`)]);
    const report = path.join(root, "e2e/.results/report.json");
    rmSync(report, { force: true });
    const code = await runCommand("playwright", ["test", "-c", "e2e/playwright.config.ts", ...passThrough], env);
    const json = readJson<{ stats: { expected: number; unexpected: number; flaky: number; skipped: number } }>(report);
    const counts = json
      ? { passed: json.stats.expected + json.stats.flaky, failed: json.stats.unexpected, skipped: json.stats.skipped }
      : undefined;
    return { name: "playwright", ok: code === 0 && counts !== undefined, counts };
  } finally {
    await stopAll();
    await database.drop();
    rmSync(sandboxDataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const results: StepResult[] = [];
  if (!only) results.push(...(await runChecks()));
  if (!only || only === "vitest") results.push(await runVitest());
  if (!only || only === "e2e") results.push(await runPlaywright());

  const total = results.reduce(
    (sum, { counts }) => ({
      passed: sum.passed + (counts?.passed ?? 0),
      failed: sum.failed + (counts?.failed ?? 0),
      skipped: sum.skipped + (counts?.skipped ?? 0),
    }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  // A step without counts that failed (typecheck, a crashed runner) counts as one failure.
  const failedSteps = results.filter((result) => !result.ok);
  total.failed += failedSteps.filter((result) => !result.counts || result.counts.failed === 0).length;
  console.log("\n==> Summary");
  for (const result of results) {
    const counts = result.counts
      ? ` (${result.counts.passed} passed, ${result.counts.failed} failed, ${result.counts.skipped} skipped)`
      : "";
    console.log(`  ${result.ok ? "ok  " : "FAIL"} ${result.name}${counts}`);
  }
  console.log(`Tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  return failedSteps.length === 0 ? 0 : 1;
}

process.on("SIGINT", () => void stopAll().then(() => process.exit(130)));
process.exitCode = await main();
