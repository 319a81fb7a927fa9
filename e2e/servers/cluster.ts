// `tsx --conditions=react-server e2e/servers/cluster.ts`: the topology of `npm run cluster` for the cluster
// end-to-end run (e2e/cluster/playwright.config.ts): nginx, two instances, two workers (the job lock must hold with
// more than one), the sandbox, on a throw-away PostgreSQL database (through PgBouncer, with a streaming replica)
// dropped on the way out. Output goes to
// e2e/.logs/cluster/; the tests read e2e/.data/cluster/state.json.
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createThrowawayDatabase } from "@/lib/testing/postgres-server";
import { startCluster, type TCluster } from "@/scripts/cluster-topology";
import {
  clusterDataDir,
  clusterLogsDir,
  clusterPorts,
  clusterStateFile,
  clusterWorkerCount,
  type TClusterState,
  type TClusterUser,
} from "../cluster/state";
import type { TTestUser } from "../targets";

const ports = clusterPorts();
const nginxDir = path.join(clusterDataDir, "nginx");
const setupLog = path.join(clusterLogsDir, "launcher.log");
const replicaDir = path.join(clusterDataDir, "replica");

function note(message: string) {
  writeFileSync(setupLog, `[e2e ${new Date().toISOString()}] ${message}\n`, { flag: "a" });
}

async function seedUsers(): Promise<Record<TClusterUser, TTestUser>> {
  const { createUser } = await import("@/lib/users/users");
  const users = {} as Record<TClusterUser, TTestUser>;
  for (const key of ["staff", "locked"] as const) {
    const user: TTestUser = {
      email: `${key}@cluster.e2e.test`,
      password: `e2e-${randomBytes(9).toString("base64url")}`,
      name: `Cluster ${key}`,
      roleId: "operations",
    };
    await createUser(user, { actor: null, userAgent: "e2e:seed" });
    users[key] = user;
  }
  return users;
}

async function main() {
  rmSync(clusterDataDir, { recursive: true, force: true });
  rmSync(clusterLogsDir, { recursive: true, force: true });
  mkdirSync(clusterLogsDir, { recursive: true });
  writeFileSync(setupLog, "");
  const database = await createThrowawayDatabase("payments_cluster_e2e");
  const metricsToken = randomBytes(24).toString("hex");
  let cluster: TCluster | undefined;
  let users: Record<TClusterUser, TTestUser> | undefined;
  let isStopping = false;
  const stop = async (code: number) => {
    if (isStopping) return;
    isStopping = true;
    await cluster?.stop();
    await database.drop().catch((error: unknown) => console.error("cluster: dropping the database failed:", error));
    process.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stop(0));

  const writeState = () => {
    if (!cluster || !users) return;
    const state: TClusterState = {
      proxyUrl: cluster.proxyUrl,
      sandboxUrl: cluster.sandboxUrl,
      databaseUrl: database.url,
      poolerUrl: cluster.database.url,
      replica: { url: cluster.database.readUrl!, dir: replicaDir },
      instances: cluster.instances.map(({ name, port, url, service }) => ({
        name,
        port,
        url,
        pid: service.child.pid ?? 0,
      })),
      workers: cluster.workers.length,
      workerMetrics: {
        urls: ports.workerMetricsPorts.map((port) => `http://127.0.0.1:${port}/metrics`),
        token: metricsToken,
      },
      accessLog: path.join(nginxDir, "access.log"),
      users,
    };
    writeFileSync(clusterStateFile, JSON.stringify(state, null, 2), { mode: 0o600 });
  };

  try {
    cluster = await startCluster({
      dir: nginxDir,
      databaseUrl: database.url,
      proxyPort: ports.proxyPort,
      poolerPort: ports.poolerPort,
      // Always part of the topology under test; without root it stops here with the reason (scripts/replica.ts).
      replica: { port: ports.replicaPort, dir: replicaDir },
      instancePorts: ports.instancePorts,
      workers: clusterWorkerCount,
      workerMetricsPorts: ports.workerMetricsPorts,
      sandboxPort: ports.sandboxPort,
      sandboxDataDir: path.join(clusterDataDir, "sandbox"),
      secrets: {
        AUTH_SECRET: randomBytes(32).toString("base64"),
        WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
      },
      build: process.env.E2E_SKIP_BUILD !== "1",
      logsDir: clusterLogsDir,
      extraEnv: {
        LOG_LEVEL: "info",
        METRICS_TOKEN: metricsToken,
        // Retries after 0.1 s, 0.3 s, 1.2 s, 3 s instead of 10 s to 5 min; one delivery id across a delivery's retries,
        // so each acknowledged attempt can be found in the dashboard's database.
        SANDBOX_RETRY_SCALE: "0.01",
        SANDBOX_WEBHOOK_DELIVERY_ID: "per-delivery",
      },
      seed: async () => {
        users = await seedUsers();
        const { ensureOwnWebhook } = await import("@/lib/webhooks/subscriptions");
        await ensureOwnWebhook({ actor: null, userAgent: "e2e:seed" });
      },
      onStep: note,
      onInstanceRestart: (instance, phase) => {
        note(`${instance.name} ${phase === "stopped" ? "stopped by itself; starting it again" : "started again"}`);
        if (phase === "started") writeState();
      },
    });
  } catch (error) {
    console.error(`e2e cluster could not start: ${error instanceof Error ? error.message : error}`);
    await stop(1);
    return;
  }
  writeState();
  note(`ready on ${cluster.proxyUrl}`);
  void cluster.failed.then((reason) => {
    console.error(`e2e cluster: ${reason}`);
    void stop(1);
  });
}

void main();
