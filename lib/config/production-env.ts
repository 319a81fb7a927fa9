import { X509Certificate } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { defineEnvConcern, type TEnvProblem } from "./define-env";

type Env = Record<string, string | undefined>;

export const productionEnvConcern = defineEnvConcern("production", {
  ALLOW_INSECURE_LOCAL_GATEWAY: z
    .enum(["0", "1"], { error: "must be 0 or 1" })
    .default("0")
    .describe(
      "1 lets a production build run against the local sandbox over http://127.0.0.1 (npm run demo and the e2e suite set it); never set it on a deployed server. Defaults to 0.",
    ),
});

const sandboxCaOrganization = "O=Payments Gateway Sandbox";
const defaultCaFile = ".data/certs/ca.pem";
const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]", "0.0.0.0"]);

// `next build` also runs with NODE_ENV=production and loads the server's modules: it serves nothing.
export function isProductionServer(env: Env = process.env): boolean {
  return env.NODE_ENV === "production" && env.NEXT_PHASE !== "phase-production-build";
}

export function isInsecureLocalGatewayAllowed(env: Env = process.env): boolean {
  return env.ALLOW_INSECURE_LOCAL_GATEWAY?.trim() === "1";
}

// Whether this server must refuse plain http where a payer's or the gateway's data travels.
export function isHttpsRequired(env: Env = process.env): boolean {
  return isProductionServer(env) && !isInsecureLocalGatewayAllowed(env);
}

function isLoopbackUrl(value: string): boolean {
  try {
    const host = new URL(value).hostname;
    return loopbackHosts.has(host) || host.endsWith(".localhost") || host.startsWith("127.");
  } catch {
    return false;
  }
}

function readCaPem(env: Env): string | undefined {
  if (env.GATEWAY_CA?.trim()) return env.GATEWAY_CA.replaceAll("\\n", "\n");
  const file = env.GATEWAY_CA_FILE?.trim() || defaultCaFile;
  // The file is the operator's, read at run time: the build must not trace (and bundle) the whole project for it.
  if (!existsSync(/* turbopackIgnore: true */ file)) return undefined;
  try {
    return readFileSync(/* turbopackIgnore: true */ file, "utf8");
  } catch {
    return undefined; // the gateway client names an unreadable file on first use
  }
}

function isSandboxCa(pem: string): boolean {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.some((block) => {
    try {
      return new X509Certificate(block).subject.includes(sandboxCaOrganization);
    } catch {
      return false;
    }
  });
}

// An estimate of the secret's randomness: its length times the bits of the smallest usual alphabet
// holding all its characters (hex 4, base64 6, printable ASCII 6.6). Few distinct characters
// ("aaaa…", "abab…") count as no randomness at all.
export function estimateSecretBits(secret: string): number {
  const body = secret.replace(/=+$/, "");
  if (new Set(body).size < 8) return 0;
  const bitsPerChar = /^[0-9a-fA-F]+$/.test(body) ? 4 : /^[A-Za-z0-9+/_-]+$/.test(body) ? 6 : Math.log2(95);
  return Math.floor(body.length * bitsPerChar);
}

const generateSecret = "Generate one with `openssl rand -base64 32`.";
const allowLocal = "For a local demo or test run only, set ALLOW_INSECURE_LOCAL_GATEWAY=1.";

// A production server refuses a configuration that works only against the local sandbox, or a guessable
// session secret. Each problem says how to fix it.
export function collectProductionProblems(env: Env = process.env): TEnvProblem[] {
  if (!isProductionServer(env)) return [];
  const problems: TEnvProblem[] = [];
  const secret = env.AUTH_SECRET?.trim();
  if (secret && estimateSecretBits(secret) < 256) {
    problems.push({
      variable: "AUTH_SECRET",
      problem: "has less than 32 bytes of randomness",
      fix: `Anyone who guesses it can sign in as any user. ${generateSecret}`,
    });
  }
  if (isInsecureLocalGatewayAllowed(env)) return problems;
  const appUrl = env.APP_URL?.trim() || undefined;
  if (!appUrl?.startsWith("https://")) {
    problems.push({
      variable: "APP_URL",
      problem: appUrl ? "is not an https:// URL" : "is not set (it defaults to http://127.0.0.1)",
      fix: `Set the dashboard's public https:// address, e.g. https://dashboard.example.com. ${allowLocal}`,
    });
  }
  const receiverUrl = env.WEBHOOK_RECEIVER_BASE_URL?.trim();
  if (receiverUrl && !receiverUrl.startsWith("https://")) {
    problems.push({
      variable: "WEBHOOK_RECEIVER_BASE_URL",
      problem: "is not an https:// URL",
      fix: `The gateway posts signed payment events there: use the https:// address it reaches. ${allowLocal}`,
    });
  }
  const gatewayUrl = env.GATEWAY_BASE_URL?.trim() || "https://127.0.0.1:8443";
  if (isLoopbackUrl(gatewayUrl)) {
    problems.push({
      variable: "GATEWAY_BASE_URL",
      problem: `is the local sandbox (${gatewayUrl})`,
      fix: `Set the payments gateway's production URL given at onboarding. ${allowLocal}`,
    });
  }
  const caPem = readCaPem(env);
  if (caPem && isSandboxCa(caPem)) {
    problems.push({
      variable: env.GATEWAY_CA?.trim() ? "GATEWAY_CA" : "GATEWAY_CA_FILE",
      problem: "is the sandbox's development CA",
      fix: `Set the CA the gateway gave at onboarding, or unset it (and remove ${defaultCaFile}) when its certificate is publicly trusted. ${allowLocal}`,
    });
  }
  return problems;
}
