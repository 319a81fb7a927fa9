// `npm run worker`: the background jobs in a process of its own, on PostgreSQL (docs/jobs.md). Runs under the
// `react-server` condition so the server-only modules load outside Next.js.
import "./load-env";
import { getDatabaseEnv } from "@/lib/config/database-env";
import { getJobsEnv } from "@/lib/config/jobs-env";
import { workerMetricsPort } from "@/lib/config/telemetry-env";
import { validateServerEnvOrExit } from "@/lib/config/validate-env";
import { disconnectDb } from "@/lib/db/client";
import { startProcessJobRunner, stopProcessJobRunner } from "@/lib/jobs/process-runner";
import { log } from "@/lib/log";
import { startMetricsServer } from "@/lib/telemetry/metrics-server";
import { startTelemetry } from "@/lib/telemetry/start";

// Below the usual 30 seconds a container platform waits after SIGTERM before killing.
const stopGraceMs = 20_000;

if (!getDatabaseEnv().DATABASE_URL) {
  console.error(
    "npm run worker needs PostgreSQL: set DATABASE_URL. The embedded PGlite database admits one process, " +
      "so with it the web server runs the jobs itself (JOBS_MODE=web, the default).",
  );
  process.exit(1);
}
await validateServerEnvOrExit();
// Job spans are exported as the web server's are (OTEL_* variables); its counters on WORKER_METRICS_PORT.
const telemetry = startTelemetry();
const metricsPort = workerMetricsPort();
const metricsServer = metricsPort === null ? null : await startMetricsServer(metricsPort);
if (metricsServer) log.info({ port: metricsServer.port }, "worker: Prometheus metrics on GET /metrics");
if (getJobsEnv().JOBS_MODE === "web")
  log.info("jobs: JOBS_MODE=web, so the web servers run jobs too; that is safe, each run is claimed once");

// The runner's timers do not hold a process open (they live inside the web server too): this does.
const keepAlive = setInterval(() => {}, 60_000);
const runner = await startProcessJobRunner();
log.info({ runnerId: runner.id }, "worker: started; stop it with Ctrl+C or SIGTERM");

let isStopping = false;
async function stop(signal: NodeJS.Signals) {
  if (isStopping) return;
  isStopping = true;
  log.info({ signal }, "worker: stopping; runs going on get a few seconds to finish");
  try {
    await stopProcessJobRunner(stopGraceMs);
  } finally {
    clearInterval(keepAlive);
    await metricsServer?.close();
    await disconnectDb();
    await telemetry.shutdown();
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, (received) => void stop(received));
