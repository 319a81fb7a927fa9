import "server-only";
import { appEnvConcern } from "./app-env";
import { authEnvConcern } from "./auth-env";
import { databaseEnvConcern } from "./database-env";
import { parseEnvConcern } from "./define-env";
import { gatewayEnvConcern } from "./gateway-env";
import { jobsEnvConcern } from "./jobs-env";
import { mailEnvConcern } from "./mail-env";
import { reconcileEnvConcern } from "./reconcile-env";
import { retentionEnvConcern } from "./retention-env";
import { assertValidServerEnv } from "./validate-env";
import { webhooksEnvConcern } from "./webhooks-env";

function readServerEnv() {
  assertValidServerEnv();
  const app = parseEnvConcern(appEnvConcern);
  const webhooks = parseEnvConcern(webhooksEnvConcern);
  const appUrl = app.APP_URL ?? `http://127.0.0.1:${app.PORT}`;
  return {
    ...parseEnvConcern(databaseEnvConcern),
    ...parseEnvConcern(authEnvConcern),
    ...app,
    ...parseEnvConcern(gatewayEnvConcern),
    ...webhooks,
    ...parseEnvConcern(reconcileEnvConcern),
    ...parseEnvConcern(retentionEnvConcern),
    ...parseEnvConcern(jobsEnvConcern),
    ...parseEnvConcern(mailEnvConcern),
    APP_URL: appUrl,
    WEBHOOK_RECEIVER_BASE_URL: webhooks.WEBHOOK_RECEIVER_BASE_URL ?? appUrl,
  };
}

export type TServerEnv = ReturnType<typeof readServerEnv>;

let cached: TServerEnv | undefined;

// On first use, so `next build` loads modules without a full environment; the server validates it at start.
function getServerEnv(): TServerEnv {
  cached ??= readServerEnv();
  return cached;
}

export const serverEnv: TServerEnv = new Proxy({} as TServerEnv, {
  get: (_target, key) => getServerEnv()[key as keyof TServerEnv],
  has: (_target, key) => key in getServerEnv(),
  ownKeys: () => Reflect.ownKeys(getServerEnv()),
  getOwnPropertyDescriptor: (_target, key) => Reflect.getOwnPropertyDescriptor(getServerEnv(), key),
});
