import { readFileSync } from "node:fs";
import path from "node:path";
import { ensureCerts } from "./certs/certs";
import { loadConfig, setConfig } from "./config";
import { Router } from "./http/router";
import { createSandboxServer } from "./http/server";
import { registerRoutes } from "./routes";
import { closeDatabase, openDatabase } from "./store/db";
import { startDispatcher } from "./webhooks/dispatcher";

const config = loadConfig();
setConfig(config);
await ensureCerts(config.certsDir);
openDatabase(config.dataDir);

const router = new Router();
registerRoutes(router);

const read = (name: string) => readFileSync(path.join(config.certsDir, name), "utf8");
const server = createSandboxServer({
  key: read("sandbox-key.pem"),
  cert: read("sandbox.pem"),
  ca: read("ca.pem"),
  router,
  latencyMs: config.latencyMs,
});
const dispatcher = startDispatcher();

server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  // The harness waits for this exact line.
  console.log(`Sandbox listening on https://${config.host}:${port} (certificates in ${config.certsDir})`);
});

let isStopping = false;
async function stop(signal: string): Promise<void> {
  if (isStopping) return;
  isStopping = true;
  console.log(`Sandbox stopping (${signal})`);
  server.close();
  server.closeAllConnections();
  await dispatcher.stop();
  closeDatabase();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
