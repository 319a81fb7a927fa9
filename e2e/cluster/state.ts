import path from "node:path";
import { dataDir, logsDir, type TTestUser } from "../targets";

// The cluster end-to-end run (e2e/cluster/playwright.config.ts): nginx on E2E_CLUSTER_PORT, the instances on the
// next ports, PgBouncer and the read replica on the two after them, the sandbox on E2E_CLUSTER_SANDBOX_PORT. The launcher (e2e/servers/cluster.ts) leaves this state
// file for the tests, and rewrites it when an instance is started again.

const clusterInstanceCount = 2;
export const clusterWorkerCount = 2;

export function clusterPorts() {
  const proxyPort = Number(process.env.E2E_CLUSTER_PORT || 3300);
  return {
    proxyPort,
    instancePorts: Array.from({ length: clusterInstanceCount }, (_, index) => proxyPort + 1 + index),
    sandboxPort: Number(process.env.E2E_CLUSTER_SANDBOX_PORT || 8743),
    poolerPort: Number(process.env.E2E_CLUSTER_POOLER_PORT || proxyPort + clusterInstanceCount + 1),
    replicaPort: Number(process.env.E2E_CLUSTER_REPLICA_PORT || proxyPort + clusterInstanceCount + 2),
    workerMetricsPorts: Array.from(
      { length: clusterWorkerCount },
      (_, index) => proxyPort + clusterInstanceCount + 3 + index,
    ),
  };
}

export const clusterDataDir = path.join(dataDir, "cluster");
export const clusterLogsDir = path.join(logsDir, "cluster");
export const clusterStateFile = path.join(clusterDataDir, "state.json");

export type TClusterUser = "staff" | "locked";

export type TClusterState = {
  proxyUrl: string;
  sandboxUrl: string;
  /** PostgreSQL itself (the primary); the app reaches it through `poolerUrl`. */
  databaseUrl: string;
  poolerUrl: string;
  /** The streaming replica; `dir` is its data folder and socket folder. */
  replica: { url: string; dir: string };
  instances: { name: string; port: number; url: string; pid: number }[];
  workers: number;
  /** Each worker's GET /metrics and the bearer token Prometheus would send. */
  workerMetrics: { urls: string[]; token: string };
  /** The nginx access log: one line per request with the instance that answered it. */
  accessLog: string;
  users: Record<TClusterUser, TTestUser>;
};
