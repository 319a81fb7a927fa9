// `tsx e2e/servers/sandbox.ts postgres|pglite`: the gateway sandbox of one e2e target, started by
// Playwright's webServer (e2e/playwright.config.ts). Each run starts from an empty sandbox, so
// the specs' lookups by date never see an earlier run's charges. Output: e2e/.logs/sandbox-<db>.log.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { keepAliveUntilStopped, startService } from "@/lib/cli/processes";
import { dataDir, logsDir, parseDatabase, targetOf } from "../targets";

const target = targetOf(parseDatabase(process.argv[2]));
const sandboxDataDir = path.join(dataDir, `sandbox-${target.database}`);
const logFile = path.join(logsDir, `sandbox-${target.database}.log`);

rmSync(sandboxDataDir, { recursive: true, force: true });
mkdirSync(sandboxDataDir, { recursive: true });
mkdirSync(logsDir, { recursive: true });
writeFileSync(logFile, "");

const sandbox = startService(`sandbox-${target.database}`, "tsx", ["sandbox/main.ts"], {
  env: {
    SANDBOX_PORT: String(target.sandboxPort),
    SANDBOX_DATA_DIR: sandboxDataDir,
    SANDBOX_LINK_BASE_URL: `${target.appUrl}/pay/`,
  },
  logFile,
  detached: false,
});
keepAliveUntilStopped(sandbox);
