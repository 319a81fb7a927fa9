import type { Page } from "@playwright/test";
import { NewPixChargePage } from "./pages/new-pix-charge-page";
import { PixChargePage } from "./pages/pix-charge-page";
import { expect, test } from "./sandbox-control";
import { storageStateFile } from "./targets";

test.use({ role: "staff" });

// Lowered only to R$ 500,00, above every amount the other specs refund, so a spec running meanwhile is never held.
const threshold = "500,00";

async function setThreshold(adminPage: Page, value: string): Promise<string> {
  await adminPage.goto("/settings");
  const field = adminPage.getByLabel("Devoluções acima de");
  const before = await field.inputValue();
  await field.fill(value);
  await adminPage.locator("form", { has: field }).getByRole("button", { name: "Salvar" }).click();
  await expect(adminPage.getByText("Configuração salva.")).toBeVisible();
  return before;
}

test("[PIX] a refund above the approval threshold waits for an admin, who approves it", async ({
  page,
  browser,
  database,
  sandbox,
}) => {
  test.setTimeout(90_000);
  const adminContext = await browser.newContext({ storageState: storageStateFile(database, "admin") });
  const adminPage = await adminContext.newPage();
  const previous = await setThreshold(adminPage, threshold);
  try {
    const txid = await new NewPixChargePage(page).create({ amount: "700,00" });
    await sandbox.payPixCharge(txid);
    const charge = new PixChargePage(page);
    await charge.goto(txid);
    await charge.expectStatus("Paga", "PAID");

    await charge.refundAmountField().fill("600,00");
    await expect(
      charge.refunds.getByText(
        "Acima de R$ 500,00, a devolução só é enviada depois que outro administrador a aprovar.",
      ),
    ).toBeVisible();
    await charge.refund("600,00", "Devolução grande");
    await expect(page.getByText("Devolução enviada para aprovação de outro administrador.")).toBeVisible();

    // Held, not refunded: the charge page shows the request, and the amount is no longer offered.
    const held = page.getByRole("region", { name: "Aguardando aprovação" }).getByTestId("refund-approval");
    await expect(held).toHaveCount(1);
    await expect(held).toContainText("R$ 600,00");
    await expect(held).toContainText("Aguardando aprovação");
    await expect(held).toContainText("Outro administrador precisa decidir sobre o seu pedido.");
    await expect(held.getByRole("button", { name: "Aprovar" })).toHaveCount(0);
    await charge.expectStatus("Paga", "PAID");
    await expect(charge.refunds.getByRole("row", { name: /Devolução grande/ })).toHaveCount(0);

    await page.goto("/approvals");
    const listed = page.getByTestId("refund-approval").filter({ has: page.getByRole("link", { name: txid }) });
    await expect(listed).toContainText("R$ 600,00");

    // The seeded admin is the second person: approving sends the refund.
    await adminPage.goto("/approvals");
    const request = adminPage
      .getByTestId("refund-approval")
      .filter({ has: adminPage.getByRole("link", { name: txid }) });
    await expect(request).toContainText("Devolução grande");
    await request.getByRole("button", { name: "Aprovar" }).click();
    const dialog = adminPage.getByRole("alertdialog");
    await expect(dialog).toContainText("R$ 600,00");
    await dialog.getByRole("button", { name: "Aprovar" }).click();
    await expect(adminPage.getByText("Devolução aprovada e enviada.")).toBeVisible();
    await expect(request).toHaveCount(0);

    await charge.goto(txid);
    await charge.expectStatus("Devolvida em parte", "PARTIALLY REFUNDED");
    await expect(charge.summaryValue("Ainda pode devolver")).toHaveText("R$ 100,00");
    await expect(charge.refunds.getByRole("row", { name: /Devolução grande/ })).toContainText("R$ 600,00");
    await expect(page.getByRole("region", { name: "Aguardando aprovação" })).toHaveCount(0);
  } finally {
    await setThreshold(adminPage, previous);
    await adminContext.close();
  }
});
