// `npm test`: every test of the project, then one summary line.
//   1. at the same time, as they do not depend on each other: lint, unused code and dependencies (knip),
//      runtime import cycles (dpdm), the comment share of lib (npm run comments), schema/migration drift and
//      typecheck (one after another); Vitest: unit, sandbox contract (real mTLS) and integration (real
//      PostgreSQL + PGlite); and the production build Playwright needs. Each one's output is held
//      back and printed whole when it ends, so the log reads one part at a time;
//   2. Playwright against that build and the real sandbox, on a throw-away PostgreSQL database and
//      (the money paths) on the embedded PGlite database;
//   3. Playwright on the production topology, on the same build: nginx, two instances, two workers (e2e/cluster/).
// `npm test -- --only=checks` (the checks of 1), `--only=vitest`, `--only=e2e` (2 and 3) or `--only=cluster` runs one
// part; extra args go to that runner (with `--only=e2e`, to the main suite only, and the cluster run is left out).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { needsBuild } from "@/lib/cli/build-freshness";

type Counts = { passed: number; failed: number; skipped: number };
// `failures` names each failed test with the first line of its error, so the summary at the
// end of a long CI log says which test failed, not only how many.
type StepResult = { name: string; ok: boolean; counts?: Counts; failures?: string[]; seconds?: number };
type TCaptured = { code: number; output: string; seconds: number };

const root = process.cwd();
const args = process.argv.slice(2);
const only = args.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
const passThrough = args.filter((arg) => !arg.startsWith("--only="));

const startedAt = performance.now();
// Children write to a pipe here, not a terminal: keep their colours when ours is a terminal.
const childEnv = process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: "1" } : {};

function secondsSince(start: number): number {
  return Math.round((performance.now() - start) / 100) / 10;
}

// The checks and the build run beside Vitest at a lower priority (`nice`, inherited by their workers): Vitest's
// tests time out (60 s) and some measure time, so they get the CPU first and the rest fills the gaps; the checks
// and the build only need to be done by the time Vitest is.
const isNiceAvailable = process.platform !== "win32";

// Runs a command with its output (stdout and stderr, interleaved as written) held back for printing later.
function runCaptured(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; isBackground?: boolean } = {},
): Promise<TCaptured> {
  const start = performance.now();
  const isNiced = options.isBackground === true && isNiceAvailable;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let isDone = false;
    const finish = (code: number) => {
      if (isDone) return;
      isDone = true;
      resolve({ code, output: Buffer.concat(chunks).toString(), seconds: secondsSince(start) });
    };
    const child = spawn(isNiced ? "nice" : command, isNiced ? ["-n", "10", command, ...args] : args, {
      env: { ...process.env, ...childEnv, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.once("error", (error) => {
      chunks.push(Buffer.from(`${command}: ${error.message}\n`));
      finish(1);
    });
    child.once("close", (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

// One part's output, whole, under its heading: parts running at the same time never interleave.
function printPart(title: string, result: TCaptured, output = result.output) {
  const verdict = result.code === 0 ? "ok" : `FAILED, exit code ${result.code}`;
  const body = output.endsWith("\n") || output === "" ? output : `${output}\n`;
  process.stdout.write(`\n==> ${title} (${verdict}, ${result.seconds} s)\n${body}`);
}

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

// A build running beside the checks skips its own TypeScript pass (tsc checks the same program): tsc waits for the
// route types the build writes first (.next/types, included by tsconfig), so the pages' props are checked too.
const routeTypesFile = path.join(root, ".next/types/validator.ts");

async function routeTypesWritten(since: number, build: Promise<unknown>): Promise<void> {
  let isBuildDone = false;
  void build.finally(() => {
    isBuildDone = true;
  });
  const isFresh = () => {
    try {
      return statSync(routeTypesFile).mtimeMs >= since;
    } catch {
      return false;
    }
  };
  while (!isBuildDone && !isFresh()) await new Promise((resolve) => setTimeout(resolve, 500));
}

async function runChecks(routeTypes: Promise<void>): Promise<StepResult[]> {
  const lint = await runCaptured("biome", ["check", "--reporter=summary", "."], { isBackground: true });
  printPart("Lint and format (biome check)", lint);
  const unused = await runCaptured("npm", ["run", "-s", "knip"], { isBackground: true });
  printPart("Unused files, exports and dependencies (npm run knip)", unused);
  const cycles = await runCaptured("npm", ["run", "-s", "cycles"], { isBackground: true });
  printPart("No runtime import cycles (npm run cycles)", cycles);
  const comments = await runCaptured("npm", ["run", "-s", "comments"], { isBackground: true });
  printPart("Comment share of lib (npm run comments)", comments);
  const drift = await runCaptured("npm", ["run", "-s", "db:check"], { isBackground: true });
  printPart("Schema and migrations agree (npm run db:check)", drift);
  await routeTypes;
  const typecheck = await runCaptured("tsc", ["--noEmit"], { isBackground: true });
  printPart("Typecheck (tsc --noEmit)", typecheck);
  return [
    { name: "typecheck", ok: typecheck.code === 0, seconds: typecheck.seconds },
    { name: "lint", ok: lint.code === 0, seconds: lint.seconds },
    { name: "knip", ok: unused.code === 0, seconds: unused.seconds },
    { name: "cycles", ok: cycles.code === 0, seconds: cycles.seconds },
    { name: "comments", ok: comments.code === 0, seconds: comments.seconds },
    { name: "db:check", ok: drift.code === 0, seconds: drift.seconds },
  ];
}

async function runVitest(): Promise<StepResult> {
  const report = path.join(tmpdir(), `vitest-${randomBytes(4).toString("hex")}.json`);
  const run = await runCaptured("vitest", [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    ...passThrough,
  ]);
  printPart("Vitest: unit, sandbox, integration", run);
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
  return { name: "vitest", ok: run.code === 0 && counts !== undefined, counts, failures, seconds: run.seconds };
}

// The production build Playwright runs against, made here so it overlaps the checks and Vitest (the e2e app
// launcher would otherwise build first, alone). Same rule as the launcher: only when stale, unless E2E_BUILD=1.
function isBuildDue(): boolean {
  const isForced = process.env.E2E_BUILD === "1";
  return process.env.E2E_SKIP_BUILD !== "1" && (isForced || needsBuild());
}

async function runBuild(): Promise<StepResult> {
  // Typechecked by the checks step when it runs beside the build.
  const env: Record<string, string> = only ? {} : { BUILD_SKIP_TYPECHECK: "1" };
  const build = await runCaptured("next", ["build"], { isBackground: true, env });
  const logsDir = path.join(root, "e2e/.logs");
  mkdirSync(logsDir, { recursive: true });
  writeFileSync(path.join(logsDir, "build.log"), build.output);
  // The route table is long: the output is in the log, and in the terminal only on failure.
  printPart(
    "Production build (next build)",
    build,
    build.code === 0 ? "Output in e2e/.logs/build.log\n" : build.output,
  );
  return { name: "build", ok: build.code === 0, seconds: build.seconds };
}

type TPlaywrightSuite = {
  suites?: TPlaywrightSuite[];
  specs?: {
    title: string;
    file: string;
    tests: { projectName: string; status: string; results: { error?: { message?: string } }[] }[];
  }[];
};

function playwrightFailures(suite: TPlaywrightSuite, testDir = "e2e"): string[] {
  const own = (suite.specs ?? []).flatMap((spec) =>
    spec.tests
      .filter((test) => test.status === "unexpected")
      .map(
        (test) =>
          `[${test.projectName}] ${testDir}/${spec.file} › ${spec.title}: ${firstLine(test.results.at(-1)?.error?.message)}`,
      ),
  );
  return [...own, ...(suite.suites ?? []).flatMap((child) => playwrightFailures(child, testDir))];
}

// The Playwright config starts what it needs (e2e/servers/): sandboxes, a fresh PostgreSQL
// database and a fresh embedded PGlite one, a production build when stale.
// Streamed as it runs: nothing else runs by then.
const mainRun = { name: "playwright", config: "e2e/playwright.config.ts", report: "e2e/.results/report.json" };
// The production topology (e2e/servers/cluster.ts): its own sandbox and database, the same build.
const clusterRun = {
  name: "playwright-cluster",
  config: "e2e/cluster/playwright.config.ts",
  report: "e2e/.results/cluster-report.json",
};

async function runPlaywright(
  env: Record<string, string>,
  run: { name: string; config: string; report: string } = mainRun,
  runArgs: string[] = passThrough,
): Promise<StepResult> {
  console.log(
    run === mainRun
      ? "\n==> Playwright: sandboxes, PostgreSQL and embedded PGlite"
      : "\n==> Playwright: cluster (nginx, two instances, two workers, PostgreSQL)",
  );
  const start = performance.now();
  const report = path.join(root, run.report);
  rmSync(report, { force: true });
  const code = await new Promise<number>((resolve) => {
    const child = spawn("playwright", ["test", "-c", run.config, ...runArgs], {
      env: { ...process.env, ...env },
      stdio: "inherit",
    });
    child.once("error", () => resolve(1));
    child.once("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  const json = readJson<{
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites: TPlaywrightSuite[];
  }>(report);
  const counts = json
    ? { passed: json.stats.expected + json.stats.flaky, failed: json.stats.unexpected, skipped: json.stats.skipped }
    : undefined;
  const testDir = path.relative(root, path.dirname(path.join(root, run.config)));
  const failures = json?.suites.flatMap((suite) => playwrightFailures(suite, testDir));
  return {
    name: run.name,
    ok: code === 0 && counts !== undefined,
    counts,
    failures,
    seconds: secondsSince(start),
  };
}

async function main(): Promise<number> {
  const isChecks = !only || only === "checks";
  const isE2e = !only || only === "e2e";
  const isCluster = !only || (only === "e2e" && passThrough.length === 0) || only === "cluster";
  const parts = [
    isChecks && "checks",
    (!only || only === "vitest") && "Vitest",
    (isE2e || isCluster) && "production build (when stale)",
  ];
  console.log(
    `\n==> Running side by side: ${parts.filter(Boolean).join(", ")}; each part's output follows when it ends`,
  );
  const buildStartedAt = Date.now();
  const building = (isE2e || isCluster) && isBuildDue() ? runBuild() : Promise.resolve(undefined);
  const [checks, vitest, build] = await Promise.all([
    isChecks ? runChecks(routeTypesWritten(buildStartedAt - 1000, building)) : [],
    !only || only === "vitest" ? runVitest() : undefined,
    building,
  ]);
  const results: StepResult[] = [...checks, ...(vitest ? [vitest] : []), ...(build ? [build] : [])];
  if (isE2e) {
    if (build && !build.ok) results.push({ name: "playwright (not run: the build failed)", ok: false });
    // Built above (or fresh already): the app launcher need not look again.
    else results.push(await runPlaywright(build ? { E2E_SKIP_BUILD: "1" } : {}));
  }
  if (isCluster) {
    if (build && !build.ok) results.push({ name: "playwright-cluster (not run: the build failed)", ok: false });
    else results.push(await runPlaywright({ E2E_SKIP_BUILD: "1" }, clusterRun, only === "cluster" ? passThrough : []));
  }

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
    const took = result.seconds === undefined ? "" : ` in ${result.seconds} s`;
    console.log(`  ${result.ok ? "ok  " : "FAIL"} ${result.name}${counts}${took}`);
    for (const failure of result.failures ?? []) console.log(`         ✗ ${failure}`);
  }
  console.log(`  took ${secondsSince(startedAt)} s`);
  console.log(`Tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  return failedSteps.length === 0 ? 0 : 1;
}

process.exitCode = await main();
