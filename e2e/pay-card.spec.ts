import { PayPage } from "./pages/pay-page";
import { expect, test } from "./pay-gateway";

// The payer's side of a payment link, with no staff session (the browser context has no cookies).

test("[PAY] a wrong code says only that, then a refused card, then an approved one in 3 installments", async ({
  page,
  links,
}) => {
  const link = await links.createLink({ valor: 100, numeroParcelas: 3 });
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await expect(page.getByText("Pedido e2e")).toBeHidden();

  await pay.enterCode(link.tokenVerificacao === 111111 ? 222222 : 111111);
  await expect(page.getByText("Código incorreto. Confira o código que a loja enviou e tente de novo.")).toBeVisible();
  await expect(page.getByText("R$ 100,00")).toBeHidden();

  await pay.verify(link.tokenVerificacao);
  await expect(page.getByText("R$ 100,00").first()).toBeVisible();
  await expect(page.getByText("Pedido e2e")).toBeVisible();
  await expect(page.getByText("1× de R$ 33,34 + 2× de R$ 33,33")).toBeVisible();

  await pay.chooseInstallments(3);
  await pay.payByCard({ number: "4000000000000002" });
  await expect(page.getByText("O pagamento não foi aprovado. Confira os dados ou use outro cartão.")).toBeVisible();
  // Try another card: the number and security code were cleared, the payer's other choices stay.
  await expect(pay.cardNumber).toHaveValue("");
  await expect(pay.securityCode).toHaveValue("");
  await expect(page.getByRole("radio", { name: /^1× de R\$ 33,34 \+ 2× de/ })).toBeChecked();
  await expect(page.getByRole("radio", { name: /^À vista/ })).not.toBeChecked();
  await expect(pay.holderName).toHaveValue("FULANO DE TAL");
  await expect(pay.expiry).toHaveValue("12/30");

  await pay.cardNumber.pressSequentially("5555555555554444");
  await expect(pay.cardNumber).toHaveValue("5555 5555 5555 4444");
  await expect(page.getByText("Bandeira: Mastercard")).toBeVisible();
  await pay.cardNumber.fill("");
  await pay.payByCard({ number: "5555555555554444" });
  await pay.expectPaid();
  await expect(page.getByText("Recebemos R$ 100,00 por cartão de crédito. Obrigado!")).toBeVisible();

  // Paid: the page never shows a form again, even after reload.
  await page.reload();
  await pay.expectPaid();
  await expect(page.getByRole("textbox")).toHaveCount(0);
});

test("[PAY] a verification code of another length than six digits opens the link", async ({ page, links }) => {
  const link = await links.createLink();
  for (const code of [42, 1_234_567_890]) {
    await links.setVerificationCode(link.linkPaymentUuid, code);
    const pay = new PayPage(page);
    await pay.goto(link.linkPaymentUuid);
    if (code === 42) {
      await pay.enterCode(43);
      await expect(
        page.getByText("Código incorreto. Confira o código que a loja enviou e tente de novo."),
      ).toBeVisible();
      await pay.verify(code);
      await expect(page.getByText("Pedido e2e")).toBeVisible();
      // A fresh payer for the next code: the access cookie is scoped to the link.
      await page.context().clearCookies();
    } else {
      await pay.verify(code);
    }
  }
});

test("[PAY] the card form checks the number and expiry before sending", async ({ page, links }) => {
  const link = await links.createLink();
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await pay.verify(link.tokenVerificacao);
  await pay.payByCard({ number: "4111111111111112", expiry: "0120" });
  await expect(page.getByText("Número de cartão inválido. Confira os dígitos.")).toBeVisible();
  await expect(page.getByText("Este cartão está vencido.")).toBeVisible();
  await expect(pay.cardNumber).toHaveAttribute("autocomplete", "cc-number");
  await expect(pay.holderName).toHaveAttribute("autocomplete", "cc-name");
  await expect(pay.expiry).toHaveAttribute("autocomplete", "cc-exp");
  await expect(pay.securityCode).toHaveAttribute("autocomplete", "cc-csc");
});

test("[PAY] the verification code cannot be guessed: attempts are limited", async ({ page, links }) => {
  const link = await links.createLink();
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  const wrong = link.tokenVerificacao === 123456 ? 654321 : 123456;
  for (let attempt = 1; attempt <= 5; attempt++) {
    await pay.enterCode(wrong);
    await expect(page.getByText("Código incorreto.", { exact: false })).toBeVisible();
  }
  // The 6th attempt is refused even with the right code.
  await pay.enterCode(link.tokenVerificacao);
  await expect(page.getByText(/Muitas tentativas\. Por segurança, tente de novo em 1[45] minutos\./)).toBeVisible();
  await expect(page.getByText("Parcelas")).toBeHidden();
});

test("[PAY] expired and cancelled links show their own page, never a form", async ({ page, links }) => {
  const expired = await links.createLink();
  await links.expireLink(expired.linkPaymentUuid);
  await page.goto(`/pay/${expired.linkPaymentUuid}`);
  await expect(page.getByRole("heading", { name: "Link expirado" })).toBeVisible();
  await expect(page.getByRole("textbox")).toHaveCount(0);

  const cancelled = await links.createLink();
  await links.cancelLink(cancelled.linkPaymentUuid);
  await page.goto(`/pay/${cancelled.linkPaymentUuid}`);
  await expect(page.getByRole("heading", { name: "Link cancelado" })).toBeVisible();
  await expect(page.getByRole("textbox")).toHaveCount(0);
});

test("[PAY] the payer switches to English without a session", async ({ page, links }) => {
  const link = await links.createLink();
  await page.goto(`/pay/${link.linkPaymentUuid}`);
  await page.getByRole("button", { name: "English" }).click();
  await expect(page.getByRole("heading", { name: "Enter the verification code" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.getByLabel("Verification code").fill(String(link.tokenVerificacao));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Installments")).toBeVisible();
  await page.getByRole("button", { name: "Português" }).click();
  await expect(page.getByText("Parcelas")).toBeVisible();
});
