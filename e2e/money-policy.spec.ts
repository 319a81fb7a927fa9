import { expect, test } from "./fixtures";
import { freshVisaNumber, TerminalPage } from "./pages/terminal-page";

// The money policy seen from the screens (docs/security.md, "Money back to a payer"): a card cancel above the
// approval threshold (default R$ 1.000,00; approvals.spec.ts lowers it to R$ 500,00 for a moment) is held.

test.use({ role: "staff" });

test("[CARDS] a staff cancel above the approval threshold waits for a second admin on the approvals page", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const paymentId = await new TerminalPage(page).charge({
    amount: "1500,00",
    number: freshVisaNumber(),
    securityCode: "123",
  });
  await expect(page.getByText("Aprovado").first()).toBeVisible();

  await page.getByRole("button", { name: "Cancelar pagamento" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("R$ 1.500,00");
  await dialog.getByRole("button", { name: "Cancelar pagamento" }).click();
  await expect(
    dialog.getByText("Este cancelamento passa de um limite de valores: ele aguarda um segundo administrador"),
  ).toBeVisible();

  await page.goto("/approvals");
  const held = page.getByTestId("refund-approval").filter({ has: page.locator(`a[href="/payments/${paymentId}"]`) });
  await expect(held).toContainText("R$ 1.500,00");
  await expect(held).toContainText("Cancelamento de pagamento com cartão");
  await expect(held).toContainText("Outro administrador precisa decidir sobre o seu pedido.");
});
