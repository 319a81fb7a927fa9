import "server-only";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { getGatewayEnv } from "@/lib/config/gateway-env";

export type TGatewayConfig = {
  baseUrl: string;
  /** PEM texts. The key never leaves the server: only http.ts hands it to the TLS layer. */
  tls: { cert: string; key: string; ca?: string };
  sources: { cert: string; key: string; ca: string | null };
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  getRetries: number;
};

export class GatewayConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GatewayConfigError";
  }
}

const defaultCaFile = ".data/certs/ca.pem";

// Hosted platforms often store a PEM on one line with literal "\n".
function pemFromEnv(text: string): string {
  return text.includes("\\n") ? text.replaceAll("\\n", "\n") : text;
}

function readPem(file: string, variable: string): string {
  const resolved = path.resolve(file);
  try {
    return readFileSync(resolved, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : "cannot be read";
    throw new GatewayConfigError(
      `${variable}: ${resolved} ${reason}. Set ${variable} (or its PEM variable), or run \`npm run certs\` for the sandbox.`,
    );
  }
}

function pick(pem: string | undefined, file: string, variable: string): { pem: string; source: string } {
  if (pem !== undefined) return { pem: pemFromEnv(pem), source: variable.replace(/_FILE$/, "") };
  return { pem: readPem(file, variable), source: `file ${file}` };
}

function readGatewayConfig(): TGatewayConfig {
  const env = getGatewayEnv();
  const cert = pick(env.GATEWAY_CLIENT_CERT, env.GATEWAY_CLIENT_CERT_FILE, "GATEWAY_CLIENT_CERT_FILE");
  const key = pick(env.GATEWAY_CLIENT_KEY, env.GATEWAY_CLIENT_KEY_FILE, "GATEWAY_CLIENT_KEY_FILE");
  let ca: { pem: string; source: string } | undefined;
  if (env.GATEWAY_CA !== undefined || env.GATEWAY_CA_FILE !== undefined) {
    ca = pick(env.GATEWAY_CA, env.GATEWAY_CA_FILE ?? defaultCaFile, "GATEWAY_CA_FILE");
  } else if (existsSync(defaultCaFile)) {
    ca = { pem: readFileSync(defaultCaFile, "utf8"), source: `file ${defaultCaFile}` };
  }
  return {
    baseUrl: env.GATEWAY_BASE_URL.replace(/\/+$/, ""),
    tls: { cert: cert.pem, key: key.pem, ...(ca ? { ca: ca.pem } : {}) },
    sources: { cert: cert.source, key: key.source, ca: ca?.source ?? null },
    connectTimeoutMs: env.GATEWAY_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: env.GATEWAY_RESPONSE_TIMEOUT_MS,
    getRetries: env.GATEWAY_GET_RETRIES,
  };
}

let cached: TGatewayConfig | undefined;

// Read once (files included); resetGatewayClient() in http.ts drops it.
export function getGatewayConfig(): TGatewayConfig {
  cached ??= readGatewayConfig();
  return cached;
}

export function clearGatewayConfig(): void {
  cached = undefined;
}
