import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPosTestApp, type TPosTestApp } from "@/lib/pos-sdk/testing/app-fixture";

// `npm run pos:seller-token` and `npm run pos:simulate` as processes, from a pos.json like the demo's, against the
// app's /v1 routes. Each runs in a folder holding only .data/demo/pos.json: no database within reach.
const run = promisify(execFile);
const root = path.resolve(".");
const tsx = path.join(root, "node_modules/.bin/tsx");

describe("POS CLIs", () => {
  let app: TPosTestApp;
  const cwd = mkdtempSync(path.join(os.tmpdir(), "pos-cli-"));
  const cli = (script: string, args: string[]) =>
    run(tsx, ["--tsconfig", path.join(root, "tsconfig.json"), path.join(root, "lib/cli", script), ...args], {
      cwd,
      env: { ...process.env, DATABASE_URL: "" },
      timeout: 60_000,
    });

  beforeAll(async () => {
    app = await startPosTestApp();
    mkdirSync(path.join(cwd, ".data/demo"), { recursive: true });
    writeFileSync(
      path.join(cwd, ".data/demo/pos.json"),
      JSON.stringify({
        baseUrl: app.server.url,
        apiKey: app.key,
        tenantId: app.tenantId,
        sellerToken: { algorithm: "HS256", secret: app.secret, audience: app.audience, tenantId: app.tenantId },
        sellerReference: "cli-seller",
        posId: "unused",
      }),
    );
  });

  afterAll(async () => {
    await app?.server.close();
    await app?.disconnectDb();
    rmSync(cwd, { recursive: true, force: true });
  });

  it("pos:seller-token prints one fresh token with sub, exp, aud and jti", async () => {
    const { stdout } = await cli("pos-seller-token.ts", ["--seller", "ref-42"]);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const claims = decodeJwt(lines[0]!);
    expect(claims).toMatchObject({ sub: "ref-42", aud: app.audience, jti: expect.any(String) });
    expect(claims.exp! - Date.now() / 1000).toBeGreaterThan(200);
    const again = await cli("pos-seller-token.ts", ["--seller", "ref-42"]);
    expect(decodeJwt(again.stdout.trim()).jti).not.toBe(claims.jti);
  });

  it("pos:simulate runs activation, config, payment and report against the app", async () => {
    const { stdout } = await cli("pos-simulate.ts", ["--amount", "1234", "--installments", "2"]);
    expect(stdout).toContain("1. activate seller");
    expect(stdout).toContain("transaction config resolved");
    expect(stdout).toContain("payment application answered");
    expect(stdout).toContain("sale reported");
    expect(stdout).toContain('"isReported": true');
    const reports = await app.db.posTransactionReport.findMany({
      where: { tenantId: app.tenantId, amountCents: 1234 },
    });
    expect(reports).toMatchObject([{ approved: true, installments: 2 }]);
  });
});
