import { X509Certificate } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { assertPublicHost, NonPublicAddressError, type TResolveHost } from "@/lib/security/public-address";
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

// The shortest prefix the secret repeats ("abcdefgh" for "abcdefghabcdefghabc"): only that part is random.
function repeatedUnit(text: string): string {
  for (let period = 1; period <= text.length / 2; period++) {
    let repeats = true;
    for (let index = period; index < text.length && repeats; index++) repeats = text[index] === text[index - period];
    if (repeats) return text.slice(0, period);
  }
  return text;
}

// A run such as "abcdefgh…" or "13579…": most neighbours differ by the same step.
function isSequence(text: string): boolean {
  let sameStep = 0;
  for (let index = 2; index < text.length; index++) {
    const step = text.charCodeAt(index) - text.charCodeAt(index - 1);
    if (step === text.charCodeAt(index - 1) - text.charCodeAt(index - 2)) sameStep++;
  }
  return text.length > 2 && sameStep * 2 >= text.length - 2;
}

// Estimated randomness: non-repeating length × bits of the smallest usual alphabet (hex 4, base64 6, ASCII 6.6); few
// distinct characters or a run count as none.
export function estimateSecretBits(secret: string): number {
  const body = repeatedUnit(secret.replace(/=+$/, ""));
  if (new Set(body).size < 8 || isSequence(body)) return 0;
  const bitsPerChar = /^[0-9a-fA-F]+$/.test(body) ? 4 : /^[A-Za-z0-9+/_-]+$/.test(body) ? 6 : Math.log2(95);
  return Math.floor(body.length * bitsPerChar);
}

// WEBHOOK_SECRET_KEY is 32 bytes: ~30 distinct values when random; fewer than 16, or a repeated unit, was typed.
function isWeakKeyBytes(bytes: Buffer): boolean {
  const text = bytes.toString("latin1");
  return repeatedUnit(text).length < text.length || new Set(text).size < 16 || isSequence(text);
}

function decodedWebhookKey(value: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, "hex");
  const bytes = Buffer.from(value, "base64");
  return bytes.length === 32 ? bytes : null;
}

const generateSecret = "Generate one with `openssl rand -base64 32`.";
const allowLocal = "For a local demo or test run only, set ALLOW_INSECURE_LOCAL_GATEWAY=1.";

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
  const webhookKey = env.WEBHOOK_SECRET_KEY?.trim();
  const webhookKeyBytes = webhookKey ? decodedWebhookKey(webhookKey) : null;
  if (webhookKeyBytes && isWeakKeyBytes(webhookKeyBytes)) {
    problems.push({
      variable: "WEBHOOK_SECRET_KEY",
      problem: "is not 32 random bytes (a repeated pattern or too few distinct bytes)",
      fix: `It encrypts the webhook and two-factor secrets at rest. ${generateSecret}`,
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
  const gatewayUrl = gatewayBaseUrl(env);
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

function gatewayBaseUrl(env: Env): string {
  return env.GATEWAY_BASE_URL?.trim() || "https://127.0.0.1:8443";
}

// The gateway host must resolve to a public address (not `localhost.`, `[::]`, `[::ffff:127.0.0.1]`); resolved once
// at start.
export async function collectGatewayAddressProblems(
  env: Env = process.env,
  resolve?: TResolveHost,
): Promise<TEnvProblem[]> {
  if (!isProductionServer(env) || isInsecureLocalGatewayAllowed(env)) return [];
  const gatewayUrl = gatewayBaseUrl(env);
  let host: string;
  try {
    host = new URL(gatewayUrl).hostname;
  } catch {
    return []; // the gateway concern names a malformed URL
  }
  if (isLoopbackUrl(gatewayUrl)) return [];
  try {
    await assertPublicHost(host, resolve);
    return [];
  } catch (error) {
    if (!(error instanceof NonPublicAddressError)) throw error;
    return [
      {
        variable: "GATEWAY_BASE_URL",
        problem:
          error.reason === "unresolved"
            ? `names a host that does not resolve (${host})`
            : `resolves to a non-public address (${host} → ${error.address})`,
        fix: `Set the payments gateway's production URL given at onboarding. ${allowLocal}`,
      },
    ];
  }
}
