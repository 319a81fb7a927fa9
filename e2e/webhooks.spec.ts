import type { Page } from "@playwright/test";
import pg from "pg";

import { NewPixChargePage } from "./pages/new-pix-charge-page";
import { PixChargePage } from "./pages/pix-charge-page";
import { WebhookDeliveriesPage } from "./pages/webhook-deliveries-page";
import { WebhooksPage } from "./pages/webhooks-page";
import { expect, test } from "./sandbox-control";

// The exactly-once ledger, read straight from the test run's database: one row per applied effect.
// PGlite admits only the app's process, so there the history's single "Aplicada" row stands for it.
async function expectAppliedOnce(databaseUrl: string | null, eventKey: string) {
  if (databaseUrl) expect(await countEffects(databaseUrl, eventKey)).toBe(1);
}

async function countEffects(databaseUrl: string, eventKey: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query('SELECT count(*)::int AS count FROM "WebhookEffect" WHERE "eventKey" = $1', [
      eventKey,
    ]);
    return result.rows[0].count;
  } finally {
    await client.end();
  }
}

/** The local webhook record named by the last segment of this app's receiver URL. */
function localIdOf(receiverUrl: string): string {
  return receiverUrl.split("/").pop()!;
}

async function markNoReload(page: Page) {
  await page.evaluate(() => Object.assign(window, { e2eNoReload: true }));
}

async function expectNoReload(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
}

test.beforeEach(async ({ context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
});

test.describe("signed in as admin", () => {
  test.use({ role: "admin" });

  test("[WEBHOOKS] admin registers a webhook, and a paid charge appears in the history and turns paid without reload", {
    tag: "@money",
  }, async ({ page, sandbox, databaseUrl }) => {
    test.slow();
    const webhooks = new WebhooksPage(page);
    await webhooks.goto();
    const registered = await webhooks.register();
    // This app's own receiver: the secret is never shown to a person.
    expect(registered.secret).toBeNull();
    expect(registered.url).toMatch(/\/api\/webhooks\/gateway\/[0-9a-f-]{36}$/);
    const row = webhooks.row(registered.url);
    await expect(row).toContainText("Receptor deste painel");
    await expect(row).toContainText("Segredo guardado");
    await expect(row).toContainText("Ativo");

    const txid = await new NewPixChargePage(page).create({ amount: "12,34" });
    const charge = new PixChargePage(page);
    await charge.expectStatus("Aguardando pagamento", "ACTIVE");
    await markNoReload(page);

    const historyPage = await page.context().newPage();
    const history = new WebhookDeliveriesPage(historyPage);
    await history.goto({ resourceId: txid });
    await expect(historyPage.getByRole("heading", { name: "Nenhuma entrega" })).toBeVisible();
    await markNoReload(historyPage);

    await sandbox.payPixCharge(txid);
    // Gateway dispatch (about a second), receiver, change notification, page refetch.
    await charge.expectStatus("Paga", "PAID", { timeout: 20_000 });
    await expectNoReload(page);
    await history.expectOutcomes({ Aplicada: 1 });
    await expectNoReload(historyPage);
    await expectAppliedOnce(databaseUrl, `pix_charge.paid:${txid}:PAID`);

    await history.rowsWithOutcome("Aplicada").getByRole("link").click();
    await expect(historyPage.getByRole("heading", { name: "Cobrança Pix paga" })).toBeVisible();
    await expect(historyPage.getByText("Assinatura válida")).toBeVisible();
    await expect(historyPage.getByRole("link", { name: txid })).toHaveAttribute("href", `/pix/${txid}`);
    await historyPage.close();

    await webhooks.goto();
    await webhooks.deactivate(registered.url);
  });

  test("[WEBHOOKS] rotating the secret keeps both webhooks delivering during the overlap, and the event is applied once", {
    tag: "@money",
  }, async ({ page, sandbox, databaseUrl }) => {
    test.slow();
    const webhooks = new WebhooksPage(page);
    await webhooks.goto();
    const old = await webhooks.register();
    const rotated = await webhooks.rotate(old.url, "1 hora");
    expect(rotated.secret).toBeNull();
    expect(rotated.url).not.toBe(old.url);
    await expect(webhooks.row(old.url)).toContainText("Sendo substituído");
    await expect(webhooks.row(rotated.url)).toContainText("Substitui o webhook");

    const txid = await new NewPixChargePage(page).create({ amount: "5,00" });
    await sandbox.payPixCharge(txid);
    await new PixChargePage(page).expectStatus("Paga", "PAID");

    // Each webhook got the event (history filtered by its receiver path); it was applied once overall.
    const history = new WebhookDeliveriesPage(page);
    for (const webhook of [old, rotated]) {
      await history.goto({ resourceId: txid, webhookId: localIdOf(webhook.url) });
      await expect(history.rows()).toHaveCount(1, { timeout: 30_000 });
    }
    await history.goto({ resourceId: txid });
    await history.expectOutcomes({ Aplicada: 1 });
    await expect(history.rowsWithOutcome("Duplicada")).not.toHaveCount(0);
    await expectAppliedOnce(databaseUrl, `pix_charge.paid:${txid}:PAID`);

    await webhooks.goto();
    await webhooks.deactivate(rotated.url);
    await webhooks.deactivate(old.url);
  });

  test("[WEBHOOKS] a refund made in the dashboard is applied again by its webhook, and the history says nothing changed", {
    tag: "@money",
  }, async ({ page, sandbox }) => {
    test.slow();
    const webhooks = new WebhooksPage(page);
    await webhooks.goto();
    const registered = await webhooks.register();

    const txid = await new NewPixChargePage(page).create({ amount: "8,00" });
    const history = new WebhookDeliveriesPage(page);
    const changes = page.locator('[data-slot="card"]').filter({ has: page.getByText("O que mudou", { exact: true }) });
    const noneApplied = /^Aplicada sem mudanças: o painel já mostrava este estado/;
    // Paid with the charge's page closed: an open charge page reads the gateway itself, and a read that saw the
    // payment first would leave the webhook nothing to change. The history is live: the delivery shows up there.
    await history.goto({ resourceId: txid });
    await sandbox.payPixCharge(txid);
    // The paid event changed the charge: its delivery lists the fields, not the "no change" wording.
    await history.expectOutcomes({ Aplicada: 1 });
    await history.rowsWithOutcome("Aplicada").getByRole("link").click();
    await expect(changes.getByRole("table")).toContainText("status");
    await expect(changes.getByText(noneApplied)).toHaveCount(0);
    const charge = new PixChargePage(page);
    await charge.goto(txid);
    await charge.expectStatus("Paga", "PAID");

    // The refund holds the charge's lock across the gateway call and mirrors the settled refund before it lets go;
    // the sandbox settles at once and queues pix_refund.returned, whose apply waits for that lock. So the webhook
    // always finds the mirror already showing what it carries.
    await charge.goto(txid);
    await charge.refund("3,00");
    await charge.expectStatus("Devolvida em parte", "PARTIALLY REFUNDED");

    await history.goto({ event: "pix_refund.returned", webhookId: localIdOf(registered.url) });
    await expect(history.rows()).toHaveCount(1, { timeout: 30_000 });
    // The resource cell also carries its column's name for small screens: take the id out of it.
    const resourceCell = (await history.rows().getByRole("cell").nth(3).textContent()) ?? "";
    const pixRefundId = resourceCell.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)?.[0];
    if (!pixRefundId) throw new Error(`no refund id in the delivery's resource cell: ${resourceCell}`);
    await history.goto({ resourceId: pixRefundId });
    await history.expectOutcomes({ Aplicada: 1 });
    await history.rowsWithOutcome("Aplicada").getByRole("link").click();
    await expect(page.getByRole("link", { name: pixRefundId })).toHaveAttribute("href", `/refunds?txid=${txid}`);
    await expect(changes.getByText(noneApplied)).toBeVisible();
    await expect(changes.getByRole("table")).toHaveCount(0);

    await webhooks.goto();
    await webhooks.deactivate(registered.url);
  });
});

test.describe("signed in as staff", () => {
  test.use({ role: "staff" });

  test("[WEBHOOKS] staff reads the delivery history, and the admin pages answer 403", async ({ page }) => {
    const history = new WebhookDeliveriesPage(page);
    const response = await history.goto();
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Entregas de webhooks" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Seções de webhooks" })).toHaveCount(0);

    for (const path of ["/webhooks", "/webhooks/signature-check"]) {
      const forbidden = await page.goto(path);
      expect(forbidden?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "Acesso negado" })).toBeVisible();
    }
    expect((await page.goto("/webhooks/deliveries/00000000-0000-4000-8000-000000000000"))?.status()).toBe(404);
  });
});
