import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db/client";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { truncateAllTables } from "@/lib/testing/truncate-tables";
import type { TSandbox } from "@/sandbox/test/harness";
import { ensureDemoPos } from "./demo-pos";
import { readDemoPosSettings } from "./pos-demo-file";

// The demo's POS seed against the real sandbox: card payments, mirror and reports agree, and a second run adds
// nothing. On PostgreSQL, then on the embedded PGlite with its one connection, as `npm run demo` runs it.
describe.each(["postgres", "pglite"] as const)("npm run demo: POS seed (%s)", (backend) => {
  let sandbox: TSandbox;
  let embedded: { close: () => Promise<void> } | null = null;
  const dir = mkdtempSync(path.join(os.tmpdir(), "demo-pos-"));
  const file = path.join(dir, "pos.json");

  beforeAll(async () => {
    if (backend === "pglite") embedded = await useEmbeddedDefaultDatabase();
    else await truncateAllTables(db);
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
    await (embedded?.close() ?? disconnectDb());
    rmSync(dir, { recursive: true, force: true });
  });

  it("seeds a key, a seller with two PDVs and matching sales, idempotently", async () => {
    const first = await ensureDemoPos("http://127.0.0.1:3000", file);
    expect(readDemoPosSettings(file)).toMatchObject({ apiKey: first.apiKey, posId: first.posIds[0] });
    expect(first.posIds).toHaveLength(2);
    const counts = async () => ({
      keys: await db.posApiKey.count(),
      sellers: await db.posSeller.count(),
      devices: await db.posDevice.count(),
      payments: await db.cardPayment.count(),
      reports: await db.posTransactionReport.count(),
      conflicts: await db.posReportConflict.count(),
      tenantDefaults: await db.posTransactionConfig.count({ where: { tenantId: { not: null } } }),
    });
    const before = await counts();
    expect(before).toEqual({
      keys: 1,
      sellers: 1,
      devices: 2,
      payments: 5,
      reports: 5,
      conflicts: 0,
      tenantDefaults: 1,
    });

    const reports = await db.posTransactionReport.findMany({ orderBy: { occurredAt: "asc" } });
    expect(reports.filter((report) => report.approved)).toHaveLength(3);
    for (const report of reports) {
      const payment = await db.cardPayment.findFirstOrThrow({ where: { gatewayUsn: report.nsuGateway } });
      expect(payment).toMatchObject({ origin: "POS", amountCents: report.amountCents, hostUsn: report.nsuHost });
      expect(payment.authorizationNumber ?? "").toBe(report.authorizationCode);
      expect(report.matchStatus).toBe(report.approved ? "MATCHED" : "PENDING");
    }

    const second = await ensureDemoPos("http://127.0.0.1:3000", file);
    expect(second).toEqual(first);
    expect(await counts()).toEqual(before);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(first);
  });
});
