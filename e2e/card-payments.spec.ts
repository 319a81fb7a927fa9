import type { Page } from "@playwright/test";
import { findCardData } from "./card-data-leaks";
import { expect, test } from "./fixtures";
import { freshVisaNumber, TerminalPage, type TTerminalCharge } from "./pages/terminal-page";

// The card side of the dashboard against the real sandbox: the virtual terminal, the payment's page, its cancel,
// a refusal explained, and saved cards switched off and on again.

const chargeAtTerminal = (page: Page, charge: TTerminalCharge) => new TerminalPage(page).charge(charge);

test.describe("signed in as staff", () => {
  test.use({ role: "staff" });

  test("[CARDS] the terminal charges a card in 3 installments, its page shows them, and staff cancels it once", {
    tag: "@money",
  }, async ({ page }) => {
    test.setTimeout(90_000);
    const number = freshVisaNumber();
    const paymentId = await chargeAtTerminal(page, {
      amount: "100,01",
      plan: "Crédito parcelado loja",
      installments: 3,
      number,
      securityCode: "123",
    });
    await expect(page.getByText("Aprovado").first()).toBeVisible();
    await expect(page.getByText(`•••• ${number.slice(-4)}`).first()).toBeVisible();
    // 100,01 in 3: the first installment takes the leftover cent.
    await expect(page.getByText("R$ 33,35").first()).toBeVisible();
    await expect(page.getByText("R$ 33,33").first()).toBeVisible();

    await page.getByRole("button", { name: "Cancelar pagamento" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("R$ 100,01");
    await dialog.getByRole("button", { name: "Cancelar pagamento" }).click();
    await expect(page.getByText("Pagamento cancelado.").first()).toBeVisible();
    await expect(page.getByText("Cancelado").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancelar pagamento" })).toHaveCount(0);

    await page.goto("/payments");
    const row = page.getByRole("row").filter({ has: page.locator(`a[href="/payments/${paymentId}"]`) });
    await expect(row).toContainText("Cancelado");
    await expect(row).toContainText("R$ 100,01");
  });

  test("[CARDS] a refused card is explained with the issuer's advice", async ({ page }) => {
    await chargeAtTerminal(page, { amount: "45,00", number: "4000000000009995", securityCode: "123" });
    await expect(page.getByText("Recusado").first()).toBeVisible();
    await expect(page.getByText(/Orientação 02: tente mais tarde/)).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancelar pagamento" })).toHaveCount(0);
  });

  test("[CARDS] a card refused with advice 03 is not charged again on the same order, and the list totals it apart", {
    tag: "@money",
  }, async ({ page }) => {
    test.setTimeout(90_000);
    const orderId = `VT-E2E-${Date.now().toString(36).toUpperCase()}`;
    const terminal = new TerminalPage(page);
    await terminal.charge({ amount: "20,00", number: "4000000000000002", securityCode: "123", orderId });
    await expect(page.getByText("Recusado").first()).toBeVisible();

    await terminal.submit({ amount: "20,00", number: "4000000000000002", securityCode: "123", orderId });
    await expect(
      page.getByText(/Este cartão foi recusado neste pedido com a orientação "não tente novamente" \(código 03\)/),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/payments\/new$/);

    // Another card on the same order goes through.
    await terminal.charge({ amount: "10,00", number: freshVisaNumber(), securityCode: "123", orderId });
    await expect(page.getByText("Aprovado").first()).toBeVisible();

    await page.goto(`/payments?orderId=${encodeURIComponent(orderId)}`);
    await expect(
      page.getByText("Aprovados: R$ 10,00 (1) · Recusados: R$ 20,00 (1) · Cancelados: R$ 0,00 (0)"),
    ).toBeVisible();
    await expect(page.getByText(/Valor total/)).toHaveCount(0);
  });

  test("[CARDS] a card refused with advice 02 waits: the terminal says until when", async ({ page }) => {
    const orderId = `VT-E2E-${Date.now().toString(36).toUpperCase()}`;
    const terminal = new TerminalPage(page);
    await terminal.charge({ amount: "30,00", number: "4000000000009995", securityCode: "123", orderId });
    await terminal.submit({ amount: "30,00", number: "4000000000009995", securityCode: "123", orderId });
    await expect(
      page.getByText(/\(código 02\)\. Tente de novo mais tarde, às \d{2}:\d{2}, ou use outro cartão\./),
    ).toBeVisible();
  });

  test("[CARDS] the payment page shows the issuer, the affiliation at the authorizer and the cancellation's receipts", async ({
    page,
  }) => {
    await chargeAtTerminal(page, { amount: "15,00", number: freshVisaNumber(), securityCode: "123" });
    await expect(page.getByText("Emissor", { exact: true })).toBeVisible();
    await expect(page.getByText("Código de afiliação no autorizador")).toBeVisible();
    await page.getByRole("button", { name: "Cancelar pagamento" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancelar pagamento" }).click();
    await expect(page.getByText("Pagamento cancelado.").first()).toBeVisible();
    await expect(page.getByText("Número de autorização do cancelamento")).toBeVisible();
    await expect(page.getByText("Cancelamento: via do cliente")).toBeVisible();
    await expect(page.getByText("Cancelamento: via do estabelecimento")).toBeVisible();
  });

  test("[CARDS] card number and security code typed at the terminal are in no database row, log line or bundle", async ({
    page,
    databaseUrl,
  }) => {
    expect(databaseUrl, "the PostgreSQL database of the run, searched for card data").toBeTruthy();
    const number = freshVisaNumber();
    const refused = "4000000000000069";
    const securityCode = "7193";
    await chargeAtTerminal(page, { amount: "12,34", number: refused, securityCode });
    const paymentId = await chargeAtTerminal(page, { amount: "12,34", number, securityCode });
    const found = await findCardData({
      cardNumbers: [number, refused],
      securityCode,
      databaseUrl: databaseUrl!,
      page,
      mustContain: paymentId,
    });
    expect(found).toEqual([]);
  });
});

test.describe("signed in as admin", () => {
  test.use({ role: "admin" });

  test("[CARDS] an admin saves a card, switches it off and on again, and a second save says it is already saved", async ({
    page,
  }) => {
    const number = freshVisaNumber();
    const lastFour = number.slice(-4);
    const addCard = async () => {
      await page.getByRole("button", { name: "Adicionar cartão" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("textbox", { name: "Número do cartão", exact: true }).fill(number);
      await dialog.getByRole("textbox", { name: "Validade", exact: true }).fill("11/31");
      await dialog.getByRole("button", { name: "Salvar cartão" }).click();
      return dialog;
    };
    await page.goto("/cards");
    await addCard();
    await expect(page.getByText("Cartão salvo.").first()).toBeVisible();

    const toggle = page.getByRole("switch", { name: `Cartão final ${lastFour} ativo` }).first();
    await expect(toggle).toBeChecked();
    await toggle.click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Desativar" }).click();
    await expect(page.getByText(`Cartão final ${lastFour} desativado.`).first()).toBeVisible();
    await expect(toggle).not.toBeChecked();
    await toggle.click();
    await expect(page.getByText(`Cartão final ${lastFour} ativado.`).first()).toBeVisible();
    await expect(toggle).toBeChecked();

    const dialog = await addCard();
    await expect(dialog.getByText("Este cartão já está salvo.")).toBeVisible();
  });
});
