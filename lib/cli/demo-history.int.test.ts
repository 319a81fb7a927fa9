import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/lib/db/client";
import { registerWebhook } from "@/lib/gateway/webhooks";
import { getOverview } from "@/lib/overview/overview";
import { resolveOverviewPeriod } from "@/lib/overview/schemas";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { truncateAllTables } from "@/lib/testing/truncate-tables";
import { allEventKinds } from "@/lib/webhooks/event-kinds";
import { sealWebhookSecret } from "@/lib/webhooks/secret-box";
import { freePort, type TSandbox } from "@/sandbox/test/harness";
import { seedDemoHistory } from "./demo-history";
import { ensureDemoPos } from "./demo-pos";

const dayMs = 24 * 60 * 60 * 1000;

// A shortened history against the real sandbox: every kind and state lands in the mirror through the app's code, the
// overview adds it up, and a second run adds nothing. On PostgreSQL, then on PGlite's one connection, as the demo runs.
describe.each(["postgres", "pglite"] as const)("npm run demo: 30 days of history (%s)", (backend) => {
  let sandbox: TSandbox;
  let embedded: { close: () => Promise<void> } | null = null;
  const dir = mkdtempSync(path.join(os.tmpdir(), "demo-history-"));
  const file = path.join(dir, "history.json");
  const posFile = path.join(dir, "pos.json");
  let options: Parameters<typeof seedDemoHistory>[0];

  beforeAll(async () => {
    if (backend === "pglite") embedded = await useEmbeddedDefaultDatabase();
    else await truncateAllTables(db);
    sandbox = await startGatewaySandbox();
    const id = randomUUID();
    const appUrl = `http://127.0.0.1:${await freePort()}`;
    const url = `${appUrl}/api/webhooks/gateway/${id}`;
    const events = allEventKinds.map((kind) => kind.event);
    await db.webhook.create({ data: { id, url, events } });
    const registered = await registerWebhook({ url, events });
    await db.webhook.update({
      where: { id },
      data: { upstreamId: registered.id, secretCiphertext: sealWebhookSecret(registered.secret, id) },
    });
    const pos = await ensureDemoPos(appUrl, posFile);
    options = { appUrl, pos, days: 28, scale: 0.35, file };
  });

  afterAll(async () => {
    await sandbox?.stop();
    await (embedded?.close() ?? disconnectDb());
    rmSync(dir, { recursive: true, force: true });
  });

  it("seeds every kind and state over the window, once", { timeout: 120_000 }, async () => {
    const first = await seedDemoHistory(options, () => {});
    expect(first.status).toBe("seeded");

    const span = await db.pixCharge.aggregate({ _min: { creationDate: true }, _max: { creationDate: true } });
    expect(span._max.creationDate!.getTime() - span._min.creationDate!.getTime()).toBeGreaterThan(25 * dayMs);
    const cardSpan = await db.cardPayment.aggregate({ _min: { occurredAt: true } });
    expect(Date.now() - cardSpan._min.occurredAt!.getTime()).toBeGreaterThan(20 * dayMs);

    expect(await db.pixCharge.count({ where: { status: "PAID" } })).toBeGreaterThan(0);
    expect(await db.pixCharge.count({ where: { status: "EXPIRED" } })).toBeGreaterThan(0);
    expect(await db.pixCharge.count({ where: { status: "REFUNDED" } })).toBeGreaterThan(0);
    expect(await db.pixCharge.count({ where: { status: "PARTIALLY REFUNDED" } })).toBeGreaterThan(0);
    expect(await db.paymentLink.count({ where: { paidMethodCode: 1 } })).toBeGreaterThan(0);
    expect(await db.paymentLink.count({ where: { pixPaidTxid: { not: null } } })).toBeGreaterThan(0);
    for (const status of ["CON", "NEG", "CAN"])
      expect(await db.cardPayment.count({ where: { status, origin: "TERMINAL" } }), status).toBeGreaterThan(0);
    expect(await db.posTransactionReport.count({ where: { matchStatus: "MATCHED" } })).toBeGreaterThan(10);
    expect(await db.webhookDelivery.count({ where: { outcome: "APPLIED" } })).toBeGreaterThan(0);
    expect(await db.webhookDelivery.count({ where: { outcome: "REJECTED_SIGNATURE" } })).toBeGreaterThan(0);
    // The drift view has one difference healed by the reconciler and one held for review.
    const drift = await db.mirrorDrift.findMany({ select: { resourceKind: true, healedAt: true } });
    expect(drift.filter((row) => row.healedAt !== null).length).toBeGreaterThan(0);
    expect(drift.filter((row) => row.healedAt === null)).toHaveLength(1);

    const overview = await getOverview(resolveOverviewPeriod({ period: "30d" }));
    const busyDays = overview.series.filter((row) => row.pix + row.card + row.link > 0);
    expect(busyDays.length).toBeGreaterThan(20);

    const counts = async () => ({
      pix: await db.pixCharge.count(),
      refunds: await db.pixRefund.count(),
      cards: await db.cardPayment.count(),
      links: await db.paymentLink.count(),
      reports: await db.posTransactionReport.count(),
    });
    const before = await counts();
    const second = await seedDemoHistory(options, () => {});
    expect(second.status).toBe("already");
    expect(await counts()).toEqual(before);
  });
});
