import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { resetGatewayClient } from "@/lib/gateway/http";
import { startSandbox, type TSandbox } from "@/sandbox/test/harness";

export async function startGatewaySandbox(
  options: { env?: Record<string, string>; client?: string; gatewayEnv?: Record<string, string> } = {},
): Promise<TSandbox> {
  const sandbox = await startSandbox({ env: options.env });
  await useGateway(sandbox.baseUrl, sandbox.certsDir, options.client ?? "merchant", options.gatewayEnv);
  return sandbox;
}

export async function useGateway(
  baseUrl: string,
  certsDir: string,
  client = "merchant",
  gatewayEnv: Record<string, string> = {},
): Promise<void> {
  for (const name of Object.keys(process.env)) if (name.startsWith("GATEWAY_")) delete process.env[name];
  Object.assign(process.env, {
    GATEWAY_BASE_URL: baseUrl,
    GATEWAY_CLIENT_CERT_FILE: path.join(certsDir, `${client}.pem`),
    GATEWAY_CLIENT_KEY_FILE: path.join(certsDir, `${client}-key.pem`),
    GATEWAY_CA_FILE: path.join(certsDir, "ca.pem"),
    ...gatewayEnv,
  });
  await resetGatewayClient();
}

export function useSuiteGatewaySandbox(): () => TSandbox {
  let sandbox: TSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });
  afterAll(async () => {
    await resetGatewayClient();
    await sandbox?.stop();
  });
  return () => sandbox!;
}
