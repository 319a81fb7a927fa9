// `npm run cluster`: the production topology on this machine (docs/deploy.md): the gateway sandbox, two `next start`
// instances, one `npm run worker` and nginx in front, on PostgreSQL: DATABASE_URL when set, otherwise the local
// database `payments_cluster` (made once, then kept). Local state (secrets, admin, nginx) lives in .data/cluster/.
// Ports: CLUSTER_PORT (nginx, 3000), the instances on the next ones (CLUSTER_INSTANCES, 2), SANDBOX_PORT (8443),
// CLUSTER_POOLER_PORT (PgBouncer, 6432), CLUSTER_REPLICA_PORT (the read replica, 5433; as root only).
import "@/lib/cli/load-env";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureLocalDatabase } from "@/lib/testing/postgres-server";
import { nginxBinary, startCluster, type TCluster } from "./cluster-topology";

const clusterDir = path.resolve(".data/cluster");
const proxyPort = Number(process.env.CLUSTER_PORT || 3000);
const instanceCount = Number(process.env.CLUSTER_INSTANCES || 2);
const sandboxPort = Number(process.env.SANDBOX_PORT || 8443);
const poolerPort = Number(process.env.CLUSTER_POOLER_PORT || 6432);
const replicaPort = Number(process.env.CLUSTER_REPLICA_PORT || 5433);

type TAdmin = { email: string; password: string };

function readOrCreate<T>(file: string, create: () => T): T {
  const fullPath = path.join(clusterDir, file);
  if (existsSync(fullPath)) return JSON.parse(readFileSync(fullPath, "utf8")) as T;
  const value = create();
  mkdirSync(clusterDir, { recursive: true });
  writeFileSync(fullPath, JSON.stringify(value, null, 2), { mode: 0o600 });
  return value;
}

let cluster: TCluster | undefined;
let isStopping = false;

async function stop(code: number) {
  if (isStopping) return;
  isStopping = true;
  console.log("\nStopping the cluster...");
  await cluster?.stop();
  process.exit(code);
}

async function main() {
  if (!existsSync(nginxBinary)) {
    throw new Error(`nginx is not installed (${nginxBinary}): sudo apt-get install -y nginx, or set NGINX_PATH`);
  }
  if (!Number.isInteger(instanceCount) || instanceCount < 1 || instanceCount > 8)
    throw new Error("CLUSTER_INSTANCES must be a whole number from 1 to 8");
  const databaseUrl = process.env.DATABASE_URL || (await ensureLocalDatabase("payments_cluster"));
  const secrets = readOrCreate("secrets.json", () => ({
    AUTH_SECRET: randomBytes(32).toString("base64"),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
  }));
  const admin = readOrCreate<TAdmin>("admin.json", () => ({
    email: "admin@cluster.local",
    password: randomBytes(12).toString("base64url"),
  }));
  const instancePorts = Array.from({ length: instanceCount }, (_, index) => proxyPort + 1 + index);

  cluster = await startCluster({
    dir: path.join(clusterDir, "nginx"),
    databaseUrl,
    proxyPort,
    poolerPort,
    replica: process.getuid?.() === 0 ? { port: replicaPort, dir: path.join(clusterDir, "replica") } : undefined,
    instancePorts,
    workers: 1,
    sandboxPort,
    sandboxDataDir: path.join(clusterDir, "sandbox"),
    secrets,
    build: true,
    // Imported here: the database client reads DATABASE_URL, which startCluster has set by now.
    seed: async () => {
      const { createUser, listUsers } = await import("@/lib/users/users");
      const { ensureOwnWebhook } = await import("@/lib/webhooks/subscriptions");
      if (!(await listUsers()).some((user) => user.email === admin.email)) {
        await createUser(
          { email: admin.email, name: "Cluster Admin", roleId: "owner", password: admin.password },
          { actor: null, userAgent: "cli:cluster" },
        );
      }
      const url = await ensureOwnWebhook({ actor: null, userAgent: "cli:cluster" });
      if (url) console.log(`Registered the dashboard's webhook receiver at the sandbox: ${url}`);
    },
    onInstanceRestart: (instance, phase) => {
      if (phase === "stopped") console.error(`\n${instance.name} stopped by itself; starting it again.`);
    },
  });
  void cluster.failed.then((reason) => {
    console.error(`\n${reason}; stopping the cluster.`);
    void stop(1);
  });

  const safeDatabaseUrl = new URL(databaseUrl);
  if (safeDatabaseUrl.password) safeDatabaseUrl.password = "***";
  console.log(`
  ┌──────────────────────────────────────────────────────────────
  │ Dashboard:  ${cluster.proxyUrl}   (nginx; config and logs in .data/cluster/nginx)
  │ Sign in:    ${admin.email}
  │ Password:   ${admin.password}   (kept in .data/cluster/admin.json)
  │ Instances:  ${cluster.instances.map((instance) => instance.url).join(", ")}   (next start, no jobs)
  │ Worker:     npm run worker (every background job)
  │ Database:   ${safeDatabaseUrl.toString()}
  │ Pooler:     PgBouncer (transaction mode) on ${poolerPort}; replica: ${cluster.database.readUrl ? `port ${replicaPort}` : "none (needs root)"}
  │ Sandbox:    ${cluster.sandboxUrl}  (mTLS; webhooks go to the proxy)
  │ Stop with Ctrl+C.
  └──────────────────────────────────────────────────────────────
`);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stop(0));

main().catch(async (error: unknown) => {
  console.error(`\nThe cluster could not start: ${error instanceof Error ? error.message : String(error)}`);
  await stop(1);
});
