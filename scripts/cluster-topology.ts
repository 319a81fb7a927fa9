// The production topology on one machine (docs/deploy.md): the gateway sandbox, N `next start` instances of one
// build with the same secrets, background jobs only in `npm run worker` processes, all on one PostgreSQL database
// through PgBouncer (transaction pooling) with a streaming read replica, behind Debian's nginx. Started by `npm run cluster` (scripts/cluster.ts) and by the cluster end-to-end run
// (e2e/servers/cluster.ts).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { needsBuild } from "@/lib/cli/build-freshness";
import { runCommand, startService, stopAll, type TService, waitForHttp, waitForPort } from "@/lib/cli/processes";
import { nginxArgs, renderNginxConfig } from "./nginx-config";
import { pgbouncerBinary, writePgbouncerConfig } from "./pgbouncer-config";
import { prepareReplica, waitForReplica } from "./replica";

export const nginxBinary = process.env.NGINX_PATH || "/usr/sbin/nginx";

export type TClusterOptions = {
  /** Where nginx's config, pid and logs go (and the processes' logs when `logsDir` is set). */
  dir: string;
  databaseUrl: string;
  proxyPort: number;
  /** PgBouncer in transaction mode between every process and PostgreSQL; its files go to `<dir>/pgbouncer`. */
  poolerPort?: number;
  /** A streaming replica (`DATABASE_READ_URL`) copied into `replicaDir`. */
  replica?: { port: number; dir: string };
  instancePorts: number[];
  workers: number;
  /** GET /metrics of each worker (WORKER_METRICS_PORT), one port per worker; METRICS_TOKEN comes with `extraEnv`. */
  workerMetricsPorts?: number[];
  sandboxPort: number;
  sandboxDataDir: string;
  /** AUTH_SECRET and WEBHOOK_SECRET_KEY: one set for every instance and worker. */
  secrets: { AUTH_SECRET: string; WEBHOOK_SECRET_KEY: string };
  /** Builds when stale (next build) unless false. */
  build: boolean;
  /** Each process's output into `<logsDir>/<name>.log`; prefixed on the terminal when unset. */
  logsDir?: string;
  /** Variables for every process beside the topology's own (e.g. SANDBOX_RETRY_SCALE, LOG_LEVEL). */
  extraEnv?: Record<string, string>;
  /** Runs in this process once the database is migrated and the sandbox listens, before any instance starts. */
  seed: () => Promise<void>;
  /** Told of each step, for the terminal or a log. */
  onStep?: (message: string) => void;
  /** When an instance stops by itself it is started again (as a container platform would); told both times. */
  onInstanceRestart?: (instance: TClusterInstance, phase: "stopped" | "started") => void;
};

export type TClusterInstance = { name: string; port: number; url: string; service: TService };

export type TCluster = {
  proxyUrl: string;
  /** What the instances and workers connect to, and PostgreSQL itself. */
  database: { url: string; directUrl: string; readUrl?: string };
  sandboxUrl: string;
  instances: TClusterInstance[];
  workers: TService[];
  nginx: TService;
  /** Resolves when a process the cluster cannot do without (sandbox, worker, nginx) stops by itself. */
  failed: Promise<string>;
  stop: () => Promise<void>;
};

function databaseUrlAt(databaseUrl: string, port: number): string {
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return url.toString();
}

export function clusterEnv(options: TClusterOptions): Record<string, string> {
  const proxyUrl = `http://127.0.0.1:${options.proxyPort}`;
  return {
    ...options.extraEnv,
    ...options.secrets,
    ...(options.poolerPort
      ? {
          DATABASE_URL: databaseUrlAt(options.databaseUrl, options.poolerPort),
          DATABASE_DIRECT_URL: options.databaseUrl,
          DATABASE_POOL_MODE: "transaction",
        }
      : { DATABASE_URL: options.databaseUrl }),
    ...(options.replica ? { DATABASE_READ_URL: databaseUrlAt(options.databaseUrl, options.replica.port) } : {}),
    // Links, sign-in callbacks and the webhook receiver registered at the gateway: all through the proxy.
    APP_URL: proxyUrl,
    GATEWAY_BASE_URL: `https://127.0.0.1:${options.sandboxPort}`,
    // `next start` runs as production, whose guard refuses http and the local sandbox unless told.
    ALLOW_INSECURE_LOCAL_GATEWAY: "1",
    // nginx is the one proxy in front: the client is the rightmost X-Forwarded-For entry.
    TRUSTED_PROXY_HOPS: "1",
    // The web servers run no jobs; the worker processes do (lib/jobs/process-runner.ts).
    JOBS_MODE: "worker",
    SANDBOX_PORT: String(options.sandboxPort),
    SANDBOX_DATA_DIR: options.sandboxDataDir,
    SANDBOX_LINK_BASE_URL: `${proxyUrl}/pay/`,
  };
}

const idOf = (flag: "-u" | "-g") => Number(execFileSync("id", [flag, "postgres"]));

// A start that fails half-way stops what it had started.
export async function startCluster(options: TClusterOptions): Promise<TCluster> {
  try {
    return await startProcesses(options);
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function startProcesses(options: TClusterOptions): Promise<TCluster> {
  const step = options.onStep ?? ((message: string) => console.log(`\n==> ${message}`));
  const env = clusterEnv(options);
  const logFile = (name: string) => (options.logsDir ? path.join(options.logsDir, `${name}.log`) : undefined);
  const must = async (title: string, command: string, args: string[]) => {
    step(title);
    const code = await runCommand(command, args, env, { logFile: logFile("setup") });
    if (code !== 0) throw new Error(`${title} failed (exit code ${code})`);
  };
  mkdirSync(path.join(options.dir, "tmp"), { recursive: true });
  if (options.logsDir) mkdirSync(options.logsDir, { recursive: true });

  let isStopping = false;
  let reportFailure: (reason: string) => void = () => {};
  const failed = new Promise<string>((resolve) => (reportFailure = resolve));
  const essential = (service: TService) => {
    service.child.once("exit", (code, signal) => {
      if (!isStopping) reportFailure(`${service.name} stopped (${signal ?? `exit code ${code}`})`);
    });
    return service;
  };

  // The sandbox needs neither the database nor the build: it starts meanwhile.
  step(`Sandbox on https://127.0.0.1:${options.sandboxPort}`);
  mkdirSync(options.sandboxDataDir, { recursive: true });
  const sandbox = essential(
    startService("sandbox", "tsx", ["sandbox/main.ts"], { env, logFile: logFile("sandbox"), detached: false }),
  );
  await must("Database migrations (npm run db:migrate)", "npm", ["run", "-s", "db:migrate"]);
  if (options.poolerPort) {
    step(`PgBouncer (transaction pooling) on 127.0.0.1:${options.poolerPort}`);
    const isRoot = process.getuid?.() === 0;
    const config = writePgbouncerConfig({
      dir: path.join(options.dir, "pgbouncer"),
      listenPort: options.poolerPort,
      databaseUrl: options.databaseUrl,
      runAs: isRoot ? { name: "postgres", uid: idOf("-u"), gid: idOf("-g") } : undefined,
    });
    const pooler = essential(
      startService("pgbouncer", pgbouncerBinary, config.args, { logFile: logFile("pgbouncer"), detached: false }),
    );
    await waitForPort(pooler, options.poolerPort);
  }
  if (options.replica) {
    step(`Read replica (pg_basebackup, streaming) on 127.0.0.1:${options.replica.port}`);
    const replica = await prepareReplica({ ...options.replica, primaryUrl: options.databaseUrl });
    essential(startService("replica", replica.command, replica.args, { logFile: logFile("replica"), detached: true }));
    await waitForReplica(replica.url);
  }
  if (options.build && needsBuild()) {
    await must("Production build (next build; a few minutes the first time)", "next", ["build"]);
  }
  await waitForPort(sandbox, options.sandboxPort);

  step("Seeding (users, the dashboard's webhook receiver at the proxy URL)");
  Object.assign(process.env, env);
  await options.seed();
  const { disconnectDb } = await import("@/lib/db/client");
  await disconnectDb();

  // Its own process group, so a test can kill an instance whole (next start and anything it forks).
  const startInstance = (name: string, port: number): TService =>
    startService(name, "next", ["start", "--hostname", "127.0.0.1", "--port", String(port)], {
      env: { ...env, PORT: String(port) },
      logFile: logFile(name),
      detached: true,
    });
  const instances: TClusterInstance[] = options.instancePorts.map((port, index) => {
    const name = `instance-${String.fromCharCode(97 + index)}`;
    return { name, port, url: `http://127.0.0.1:${port}`, service: startInstance(name, port) };
  });
  const supervise = (instance: TClusterInstance) => {
    instance.service.child.once("exit", () => {
      if (isStopping) return;
      options.onInstanceRestart?.(instance, "stopped");
      void sleep(500).then(() => {
        if (isStopping) return;
        instance.service = startInstance(instance.name, instance.port);
        supervise(instance);
        options.onInstanceRestart?.(instance, "started");
      });
    });
  };
  step(`Instances on ${instances.map((instance) => instance.port).join(", ")} (next start, JOBS_MODE=worker)`);

  step(options.workers === 1 ? "Worker (npm run worker)" : `Workers (npm run worker) × ${options.workers}`);
  const workers = Array.from({ length: options.workers }, (_, index) =>
    essential(
      startService(`worker-${index + 1}`, "npm", ["run", "-s", "worker"], {
        env: {
          ...env,
          ...(options.workerMetricsPorts?.[index]
            ? { WORKER_METRICS_PORT: String(options.workerMetricsPorts[index]) }
            : {}),
        },
        logFile: logFile(`worker-${index + 1}`),
        // npm, its shell and tsx are stopped together with the worker.
        detached: true,
      }),
    ),
  );

  step(`nginx on http://127.0.0.1:${options.proxyPort}`);
  const configFile = path.join(options.dir, "nginx.conf");
  writeFileSync(
    configFile,
    renderNginxConfig({ dir: options.dir, listenPort: options.proxyPort, upstreamPorts: options.instancePorts }),
  );
  const nginx = essential(
    startService("nginx", nginxBinary, nginxArgs(options.dir, configFile), {
      logFile: logFile("nginx"),
      detached: false,
    }),
  );
  const proxyUrl = `http://127.0.0.1:${options.proxyPort}`;
  // Everything boots at once; the proxy is ready when every instance is.
  await Promise.all(instances.map((instance) => waitForHttp(instance.service, `${instance.url}/api/health`)));
  for (const instance of instances) supervise(instance);
  await waitForHttp(nginx, `${proxyUrl}/api/health`, 30_000);

  return {
    proxyUrl,
    database: { url: env.DATABASE_URL!, directUrl: options.databaseUrl, readUrl: env.DATABASE_READ_URL },
    sandboxUrl: `https://127.0.0.1:${options.sandboxPort}`,
    instances,
    workers,
    nginx,
    failed,
    stop: async () => {
      isStopping = true;
      await stopAll();
    },
  };
}
