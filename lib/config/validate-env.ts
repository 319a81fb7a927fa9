import { alertsEnvConcern } from "./alerts-env";
import { appEnvConcern } from "./app-env";
import { authEnvConcern } from "./auth-env";
import { databaseEnvConcern } from "./database-env";
import { collectEnvProblems, EnvValidationError } from "./define-env";
import { gatewayEnvConcern } from "./gateway-env";
import { getJobsEnv, jobsEnvConcern } from "./jobs-env";
import { mailEnvConcern } from "./mail-env";
import { payPageEnvConcern } from "./pay-page-env";
import {
  collectGatewayAddressProblems,
  collectProductionProblems,
  isInsecureLocalGatewayAllowed,
  isProductionServer,
  productionEnvConcern,
} from "./production-env";
import { reconcileEnvConcern } from "./reconcile-env";
import { retentionEnvConcern } from "./retention-env";
import { telemetryEnvConcern, workerMetricsPort } from "./telemetry-env";
import { webhooksEnvConcern } from "./webhooks-env";

// Add a concern here (and to ServerEnv in server-env.ts) when a feature brings new variables.
const serverEnvConcerns = [
  databaseEnvConcern,
  authEnvConcern,
  appEnvConcern,
  gatewayEnvConcern,
  webhooksEnvConcern,
  reconcileEnvConcern,
  alertsEnvConcern,
  retentionEnvConcern,
  jobsEnvConcern,
  mailEnvConcern,
  payPageEnvConcern,
  telemetryEnvConcern,
  productionEnvConcern,
];

export function assertValidServerEnv(env: Record<string, string | undefined> = process.env): void {
  const problems = [...collectEnvProblems(serverEnvConcerns, env), ...collectProductionProblems(env)];
  if (problems.length > 0) throw new EnvValidationError(problems);
  getJobsEnv(env);
  workerMetricsPort(env);
}

// A server with a bad environment stops at start, not on the first request that reads the variable. The gateway's
// host is resolved here too, once (a production server refuses one that is not public).
export async function validateServerEnvOrExit(): Promise<void> {
  try {
    assertValidServerEnv();
    const addressProblems = await collectGatewayAddressProblems();
    if (addressProblems.length > 0) throw new EnvValidationError(addressProblems);
    if (isProductionServer() && isInsecureLocalGatewayAllowed()) {
      console.warn(
        "ALLOW_INSECURE_LOCAL_GATEWAY=1: http and the local sandbox are allowed; never on a deployed server.",
      );
    }
  } catch (error) {
    if (!(error instanceof EnvValidationError)) throw error;
    console.error(`\n${error.message}\n`);
    process.exit(1);
  }
}
