import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureCerts } from "@/sandbox/certs/certs";
import { EnvValidationError } from "./define-env";
import { collectGatewayAddressProblems, collectProductionProblems, estimateSecretBits } from "./production-env";
import { assertValidServerEnv } from "./validate-env";

const strongSecret = randomBytes(32).toString("base64");
// A deployment that passes: https everywhere, the real gateway, a CA that is not the sandbox's.
const deployed = {
  NODE_ENV: "production",
  AUTH_SECRET: strongSecret,
  WEBHOOK_SECRET_KEY: randomBytes(32).toString("base64"),
  APP_URL: "https://dashboard.example.com",
  GATEWAY_BASE_URL: "https://api.gateway.example",
  GATEWAY_CA_FILE: path.join(mkdtempSync(path.join(tmpdir(), "ca-")), "none.pem"),
};
const certsDir = path.resolve(".data/test-certs");
const sandboxCaFile = path.join(certsDir, "ca.pem");

function problemsOf(env: Record<string, string | undefined>) {
  return collectProductionProblems(env).map(({ variable, problem, fix }) => `${variable} ${problem}. ${fix}`);
}

describe("production guard", () => {
  beforeAll(async () => {
    await ensureCerts(certsDir, []);
  }, 60_000);

  it("starts a production server configured for a real deployment", () => {
    expect(problemsOf(deployed)).toEqual([]);
    expect(() => assertValidServerEnv(deployed)).not.toThrow();
  });

  it("refuses an http APP_URL or webhook receiver, and says what to set", () => {
    expect(problemsOf({ ...deployed, APP_URL: "http://dashboard.example.com" })).toEqual([
      expect.stringMatching(/^APP_URL is not an https:\/\/ URL\. Set the dashboard's public https:\/\/ address/),
    ]);
    expect(problemsOf({ ...deployed, APP_URL: undefined })[0]).toMatch(/^APP_URL is not set/);
    expect(problemsOf({ ...deployed, WEBHOOK_RECEIVER_BASE_URL: "http://hooks.example.com" })).toEqual([
      expect.stringMatching(/^WEBHOOK_RECEIVER_BASE_URL is not an https:\/\/ URL/),
    ]);
  });

  it("refuses the local sandbox as the gateway, also when left at its default", () => {
    for (const url of ["https://127.0.0.1:8443", "https://localhost:8543", undefined]) {
      expect(problemsOf({ ...deployed, GATEWAY_BASE_URL: url })).toEqual([
        expect.stringMatching(/^GATEWAY_BASE_URL is the local sandbox .*Set the payments gateway's production URL/),
      ]);
    }
  });

  it("refuses the sandbox's development CA, from a file or as PEM text", () => {
    const pem = readFileSync(sandboxCaFile, "utf8");
    expect(problemsOf({ ...deployed, GATEWAY_CA_FILE: sandboxCaFile })).toEqual([
      expect.stringMatching(/^GATEWAY_CA_FILE is the sandbox's development CA\. Set the CA the gateway gave/),
    ]);
    expect(problemsOf({ ...deployed, GATEWAY_CA: pem.replaceAll("\n", "\\n") })).toEqual([
      expect.stringMatching(/^GATEWAY_CA is the sandbox's development CA/),
    ]);
    const otherCa = path.join(mkdtempSync(path.join(tmpdir(), "ca-")), "ca.pem");
    writeFileSync(otherCa, "not a certificate");
    expect(problemsOf({ ...deployed, GATEWAY_CA_FILE: otherCa })).toEqual([]);
  });

  it("refuses an AUTH_SECRET with less than 32 bytes of randomness, though 32 characters long", () => {
    for (const weak of ["x".repeat(40), "correct horse battery staple!!!!", randomBytes(24).toString("base64")]) {
      expect(problemsOf({ ...deployed, AUTH_SECRET: weak })).toEqual([
        expect.stringMatching(/^AUTH_SECRET has less than 32 bytes of randomness\..*openssl rand -base64 32/),
      ]);
    }
    expect(estimateSecretBits(randomBytes(32).toString("hex"))).toBeGreaterThanOrEqual(256);
    expect(estimateSecretBits(strongSecret)).toBeGreaterThanOrEqual(256);
  });

  it("refuses an AUTH_SECRET made of a repeated unit or a run, though long and varied", () => {
    const unit = randomBytes(6).toString("base64");
    for (const weak of [
      unit.repeat(6),
      `${"abcdefghij".repeat(5)}abc`,
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
      "0123456789abcdef".repeat(4),
    ]) {
      expect(problemsOf({ ...deployed, AUTH_SECRET: weak }), weak).toEqual([
        expect.stringMatching(/^AUTH_SECRET has less than 32 bytes of randomness/),
      ]);
    }
  });

  it("refuses a WEBHOOK_SECRET_KEY that is 32 bytes but not random, also under the local opt-out", () => {
    for (const weak of [
      Buffer.alloc(32, 0x61).toString("base64"),
      Buffer.from("0123456789abcdef0123456789abcdef").toString("base64"),
      "ab".repeat(32),
      Buffer.from(Array.from({ length: 32 }, (_, index) => index)).toString("base64"),
    ]) {
      for (const env of [deployed, { ...deployed, ALLOW_INSECURE_LOCAL_GATEWAY: "1" }])
        expect(problemsOf({ ...env, WEBHOOK_SECRET_KEY: weak }), weak).toEqual([
          expect.stringMatching(/^WEBHOOK_SECRET_KEY is not 32 random bytes/),
        ]);
    }
    expect(problemsOf({ ...deployed, WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex") })).toEqual([]);
  });

  it("refuses a gateway host that resolves (or is written) as a non-public address", async () => {
    const resolve = async (host: string) => {
      const answers: Record<string, string[]> = {
        "localhost.": ["127.0.0.1"],
        "api.gateway.example": ["200.160.2.3"],
        "internal.gateway.example": ["10.0.0.8"],
      };
      if (!answers[host]) throw new Error("ENOTFOUND");
      return answers[host].map((address) => ({ address, family: 4 as const }));
    };
    expect(await collectGatewayAddressProblems(deployed, resolve)).toEqual([]);
    for (const url of [
      "https://localhost.:8443",
      "https://[::]:8443",
      "https://[::ffff:127.0.0.1]:8443",
      "https://internal.gateway.example",
      "https://169.254.169.254",
    ]) {
      expect(await collectGatewayAddressProblems({ ...deployed, GATEWAY_BASE_URL: url }, resolve), url).toEqual([
        expect.objectContaining({
          variable: "GATEWAY_BASE_URL",
          problem: expect.stringMatching(/^resolves to a non-public address/),
        }),
      ]);
    }
    expect(
      await collectGatewayAddressProblems({ ...deployed, GATEWAY_BASE_URL: "https://gone.example" }, resolve),
    ).toEqual([expect.objectContaining({ problem: "names a host that does not resolve (gone.example)" })]);
    // The demo and the e2e suite run against the sandbox on 127.0.0.1.
    const local = { ...deployed, ALLOW_INSECURE_LOCAL_GATEWAY: "1", GATEWAY_BASE_URL: "https://localhost.:8443" };
    expect(await collectGatewayAddressProblems(local, resolve)).toEqual([]);
    expect(await collectGatewayAddressProblems({ ...local, NODE_ENV: "development" }, resolve)).toEqual([]);
  });

  it("stops the start with every problem at once", () => {
    const env = {
      ...deployed,
      AUTH_SECRET: "a".repeat(32),
      APP_URL: "http://127.0.0.1:3000",
      GATEWAY_BASE_URL: "https://127.0.0.1:8443",
    };
    expect(() => assertValidServerEnv(env)).toThrow(EnvValidationError);
    expect(() => assertValidServerEnv(env)).toThrow(/AUTH_SECRET[\s\S]*APP_URL[\s\S]*GATEWAY_BASE_URL/);
  });

  it("lets the demo and the e2e suite run a production build against the local sandbox when they opt out", () => {
    const local = {
      ...deployed,
      ALLOW_INSECURE_LOCAL_GATEWAY: "1",
      APP_URL: "http://127.0.0.1:3000",
      GATEWAY_BASE_URL: "https://127.0.0.1:8443",
      GATEWAY_CA_FILE: sandboxCaFile,
    };
    expect(problemsOf(local)).toEqual([]);
    expect(() => assertValidServerEnv(local)).not.toThrow();
    // The opt-out covers the local setup, never a guessable session secret.
    expect(problemsOf({ ...local, AUTH_SECRET: "x".repeat(40) })).toHaveLength(1);
    expect(() => assertValidServerEnv({ ...local, ALLOW_INSECURE_LOCAL_GATEWAY: "yes" })).toThrow(
      /ALLOW_INSECURE_LOCAL_GATEWAY is invalid: must be 0 or 1/,
    );
  });

  it("checks nothing outside a production server: development, tests and `next build`", () => {
    const local = { ...deployed, APP_URL: "http://127.0.0.1:3000", GATEWAY_BASE_URL: "https://127.0.0.1:8443" };
    expect(problemsOf({ ...local, NODE_ENV: "development" })).toEqual([]);
    expect(problemsOf({ ...local, NEXT_PHASE: "phase-production-build" })).toEqual([]);
  });
});
