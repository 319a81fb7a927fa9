// `npm test`: every test of the project, cheapest failures first, then one summary line.
//   1. typecheck and schema/migration drift;
//   2. Vitest: unit, sandbox contract (real mTLS) and integration (real PostgreSQL + PGlite);
//   3. Playwright against a production build of the dashboard and the real sandbox, on a
//      throw-away PostgreSQL database and (the money paths) on the embedded PGlite database.
// `npm test -- --only=vitest` or `--only=e2e` runs one part; extra args go to that runner.
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCommand } from "./processes";

type Counts = { passed: number; failed: number; skipped: number };
// `failures` names each failed test with the first line of its error, so the summary at the
// end of a long CI log says which test failed, not only how many.
type StepResult = { name: string; ok: boolean; counts?: Counts; failures?: string[] };

const root = process.cwd();
const args = process.argv.slice(2);
const only = args.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
const passThrough = args.filter((arg) => !arg.startsWith("--only="));

function firstLine(message: string | undefined): string {
  // Error messages carry ANSI colours; the summary is read as plain text.
  const plain = (message ?? "").replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");
  return (
    plain
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim()
      .slice(0, 300) ?? ""
  );
}

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
    testResults: {
      name: string;
      assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
    }[];
  }>(report);
  rmSync(report, { force: true });
  const counts = json
    ? { passed: json.numPassedTests, failed: json.numFailedTests, skipped: json.numPendingTests + json.numTodoTests }
    : undefined;
  const failures = json?.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === "failed")
      .map((test) => `${path.relative(root, file.name)} › ${test.fullName}: ${firstLine(test.failureMessages[0])}`),
  );
  return { name: "vitest", ok: code === 0 && counts !== undefined, counts, failures };
}

type TPlaywrightSuite = {
  suites?: TPlaywrightSuite[];
  specs?: {
    title: string;
    file: string;
    tests: { projectName: string; status: string; results: { error?: { message?: string } }[] }[];
  }[];
};

function playwrightFailures(suite: TPlaywrightSuite): string[] {
  const own = (suite.specs ?? []).flatMap((spec) =>
    spec.tests
      .filter((test) => test.status === "unexpected")
      .map(
        (test) =>
          `[${test.projectName}] e2e/${spec.file} › ${spec.title}: ${firstLine(test.results.at(-1)?.error?.message)}`,
      ),
  );
  return [...own, ...(suite.suites ?? []).flatMap(playwrightFailures)];
}

// The Playwright config starts what it needs (e2e/servers/): sandboxes, a fresh PostgreSQL
// database and a fresh embedded PGlite one, a production build when stale.
async function runPlaywright(): Promise<StepResult> {
  console.log("\n==> Playwright: production build, sandboxes, PostgreSQL and embedded PGlite");
  const report = path.join(root, "e2e/.results/report.json");
  rmSync(report, { force: true });
  const code = await runCommand("playwright", ["test", "-c", "e2e/playwright.config.ts", ...passThrough]);
  const json = readJson<{
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites: TPlaywrightSuite[];
  }>(report);
  const counts = json
    ? { passed: json.stats.expected + json.stats.flaky, failed: json.stats.unexpected, skipped: json.stats.skipped }
    : undefined;
  const failures = json?.suites.flatMap(playwrightFailures);
  return { name: "playwright", ok: code === 0 && counts !== undefined, counts, failures };
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
    for (const failure of result.failures ?? []) console.log(`         ✗ ${failure}`);
  }
  console.log(`Tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  return failedSteps.length === 0 ? 0 : 1;
}

process.exitCode = await main();
