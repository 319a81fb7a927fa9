import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { NewPixChargePage } from "./pages/new-pix-charge-page";
import { expect, test } from "./sandbox-control";
import { e2eMetricsToken, prometheusPort, targetOf } from "./targets";

// Debian's Prometheus scrapes the running app's /api/metrics with its bearer token; the assertions are PromQL.
const prometheusBinary = "/usr/bin/prometheus";
const prometheusUrl = `http://127.0.0.1:${prometheusPort()}`;
const pixCreates = 'sum(payments_gateway_call_duration_seconds_count{operation="pix-charges.create",outcome="ok"})';

let prometheus: ChildProcess | undefined;
let workDir: string | undefined;

async function query(promql: string): Promise<number | null> {
  const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await response.json()) as { status: string; data: { result: { value: [number, string] }[] } };
  expect(body.status).toBe("success");
  const [first] = body.data.result;
  return first ? Number(first.value[1]) : null;
}

test.use({ role: "staff" });

test.beforeAll(async ({ database }) => {
  if (!existsSync(prometheusBinary))
    throw new Error(`${prometheusBinary} is missing: apt-get install prometheus (.ci/run installs it)`);
  const app = new URL(targetOf(database).appUrl);
  workDir = mkdtempSync(path.join(tmpdir(), "e2e-prometheus-"));
  const config = path.join(workDir, "prometheus.yml");
  writeFileSync(
    config,
    [
      "global:",
      "  scrape_interval: 1s",
      "scrape_configs:",
      "  - job_name: dashboard",
      "    metrics_path: /api/metrics",
      "    authorization:",
      "      type: Bearer",
      `      credentials: ${e2eMetricsToken}`,
      "    static_configs:",
      `      - targets: ["127.0.0.1:${app.port}"]`,
      "",
    ].join("\n"),
  );
  prometheus = spawn(
    prometheusBinary,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(workDir, "data")}`,
      `--web.listen-address=127.0.0.1:${prometheusPort()}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  await expect
    .poll(() => query('up{job="dashboard"}').catch(() => null), { timeout: 30_000, intervals: [250] })
    .toBe(1);
});

test.afterAll(async () => {
  prometheus?.kill("SIGTERM");
  if (prometheus && prometheus.exitCode === null) await new Promise((resolve) => prometheus!.once("exit", resolve));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

test("[METRICS] Prometheus scrapes the app and counts the Pix charges created in the browser", async ({ page }) => {
  test.setTimeout(90_000);
  // Other specs may have created charges before: the count is taken once Prometheus holds a fresh sample.
  await page.waitForTimeout(1_500);
  const before = (await query(pixCreates)) ?? 0;
  await new NewPixChargePage(page).create({ amount: "10,00" });
  await new NewPixChargePage(page).create({ amount: "20,00" });

  await expect.poll(() => query(pixCreates), { timeout: 15_000, intervals: [500] }).toBe(before + 2);
  expect(await query('up{job="dashboard"}')).toBe(1);
  // The server action's request, by its route template, not its URL.
  expect(
    await query('sum(payments_http_request_duration_seconds_count{route="/pix/new",method="POST",status_class="2xx"})'),
  ).toBeGreaterThanOrEqual(2);
  expect(await query("payments_gateway_certificate_days_left")).toBeGreaterThan(0);
});
