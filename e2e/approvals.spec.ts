import type { Locator, Page } from "@playwright/test";
import { signInAsApprover } from "./approver";
import { NewPixChargePage } from "./pages/new-pix-charge-page";
import { PixChargePage } from "./pages/pix-charge-page";
import { expect, test } from "./sandbox-control";
import { storageStateFile } from "./targets";

test.use({ role: "staff" });

// The staff user's role (Operations) lowered only to R$ 500,00, above every amount the other specs refund, so a spec
// running meanwhile is never held.
const threshold = "500,00";

// Lowering a role's refund limit applies at once; raising it back waits for a second admin (docs/roles.md).
async function setThreshold(adminPage: Page, value: string, outcome: "saved" | "held" = "saved"): Promise<string> {
  await adminPage.goto("/users/roles/operations");
  const field = adminPage.getByLabel("Limite de devolução por cobrança");
  const before = await field.inputValue();
  await field.fill(value);
  await adminPage.getByRole("button", { name: "Salvar função" }).click();
  await expect(
    adminPage.getByText(outcome === "saved" ? "Função salva." : /^Enviado para aprovação: outro administrador/),
  ).toBeVisible();
  return before;
}

async function approveWithCode(page: Page, card: Locator, code: string, done: string) {
  await card.getByRole("button", { name: "Aprovar" }).click();
  const dialog = page.getByRole("alertdialog");
  await dialog.getByLabel("Código do autenticador").fill(code);
  await dialog.getByRole("button", { name: "Aprovar" }).click();
  await expect(page.getByText(done)).toBeVisible();
}

test("[PIX] a refund above the approval threshold waits for an independent admin, who approves it with a fresh code", async ({
  page,
  browser,
  database,
  sandbox,
  users,
}) => {
  test.setTimeout(180_000);
  const adminContext = await browser.newContext({ storageState: storageStateFile(database, "admin") });
  const adminPage = await adminContext.newPage();
  const approver = await signInAsApprover(browser, users.approver);
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

    // The seeded admin was created today: an admin that new is not a second person, and is told so.
    await adminPage.goto("/approvals");
    const seen = adminPage.getByTestId("refund-approval").filter({ has: adminPage.getByRole("link", { name: txid }) });
    await expect(seen).toContainText("Administradores criados nas últimas 24 horas ainda não podem aprovar.");
    await expect(seen.getByRole("button", { name: "Aprovar" })).toHaveCount(0);

    // The approver (an older admin with two-factor on) approves with a code from now: the refund is sent.
    const approverPage = approver.page;
    await approverPage.goto("/approvals");
    const request = approverPage
      .getByTestId("refund-approval")
      .filter({ has: approverPage.getByRole("link", { name: txid }) });
    await expect(request).toContainText("Devolução grande");
    await request.getByRole("button", { name: "Aprovar" }).click();
    const dialog = approverPage.getByRole("alertdialog");
    await expect(dialog).toContainText("R$ 600,00");
    // Without a code the server refuses and says why.
    await dialog.getByRole("button", { name: "Aprovar" }).click();
    await expect(dialog.getByText("Digite o código do seu aplicativo autenticador.")).toBeVisible();
    await dialog.getByRole("button", { name: "Fechar" }).click();
    await approveWithCode(approverPage, request, await approver.nextCode(), "Devolução aprovada e enviada.");
    await expect(request).toHaveCount(0);

    await charge.goto(txid);
    await charge.expectStatus("Devolvida em parte", "PARTIALLY REFUNDED");
    await expect(charge.summaryValue("Ainda pode devolver")).toHaveText("R$ 100,00");
    await expect(charge.refunds.getByRole("row", { name: /Devolução grande/ })).toContainText("R$ 600,00");
    await expect(page.getByRole("region", { name: "Aguardando aprovação" })).toHaveCount(0);
  } finally {
    // Raising it back is held for a second admin: the approver approves it on the users page.
    await setThreshold(adminPage, previous, "held");
    await approver.page.goto("/users");
    const change = approver.page
      .getByTestId("pending-admin-change")
      .filter({ hasText: "Definir o limite de devolução da função Operações" })
      .first();
    await approveWithCode(approver.page, change, await approver.nextCode(), "Alteração aprovada e aplicada.");
    await approver.close();
    await adminContext.close();
  }
});
