import { PayPage } from "./pages/pay-page";
import { expect, test } from "./pay-gateway";

// The hosted page without JavaScript (progressive enhancement, docs/pay-page.md): every step is a real form posting
// to the page's server actions, and the server answers with the whole page.
test.use({ javaScriptEnabled: false });

test("[PAY] without JavaScript: the code, a refused card, then 3 installments approved", async ({ page, links }) => {
  const link = await links.createLink({ valor: 100, numeroParcelas: 3 });
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);

  await pay.codeInput.fill(String(link.tokenVerificacao === 111111 ? 222222 : 111111));
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page.getByText("Código incorreto. Confira o código que a loja enviou e tente de novo.")).toBeVisible();

  await pay.codeInput.fill(String(link.tokenVerificacao));
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page.getByText("Parcelas")).toBeVisible();
  await expect(page.getByText("1× de R$ 33,34 + 2× de R$ 33,33")).toBeVisible();

  // No script formats the fields: the payer types the expiry with its slash; the server accepts spaces in the number.
  const fillCard = async (number: string) => {
    await pay.cardNumber.fill(number);
    await pay.holderName.fill("FULANO DE TAL");
    await pay.expiry.fill("12/30");
    await pay.securityCode.fill("123");
    await page.getByRole("button", { name: /^Pagar / }).click();
  };
  await pay.chooseInstallments(3);
  await fillCard("4000 0000 0000 0002");
  await expect(page.getByText("O pagamento não foi aprovado. Confira os dados ou use outro cartão.")).toBeVisible();
  // The server's answer never renders the card number or code back; the payer's other choices stay.
  await expect(pay.cardNumber).toHaveValue("");
  await expect(pay.securityCode).toHaveValue("");
  await expect(page.getByRole("radio", { name: /^1× de R\$ 33,34 \+ 2× de/ })).toBeChecked();
  await expect(pay.holderName).toHaveValue("FULANO DE TAL");
  await expect(pay.expiry).toHaveValue("12/30");
  const html = await page.content();
  expect(html).not.toContain("4000 0000 0000 0002");
  expect(html).not.toContain("4000000000000002");

  await fillCard("5555555555554444");
  await pay.expectPaid();
  await expect(page.getByText("Recebemos R$ 100,00 por cartão de crédito. Obrigado!")).toBeVisible();
});

test("[PAY] without JavaScript: a Pix QR and code, then the check shows the payment", { tag: "@money" }, async ({
  page,
  links,
  sandbox,
}) => {
  const link = await links.createLink({ valor: 42.5, numeroParcelas: 1 });
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await pay.codeInput.fill(String(link.tokenVerificacao));
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page.getByText("Parcelas")).toBeVisible();

  // The method choice shows its panel by CSS alone.
  await expect(page.getByRole("button", { name: "Gerar código Pix" })).toBeHidden();
  await pay.chooseMethod("Pix");
  await expect(pay.cardNumber).toBeHidden();
  await page.getByRole("button", { name: "Gerar código Pix" }).click();
  const qr = page.getByRole("img", { name: "QR Code Pix do pagamento" });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
  const code = await page.getByLabel("Pix copia e cola").inputValue();
  expect(code).toMatch(/^000201/);
  // No copy button without a script: the code is selectable text.
  await expect(page.getByRole("button", { name: "Copiar código Pix" })).toHaveCount(0);

  const check = page.getByRole("button", { name: "Já paguei: verificar o pagamento" });
  await check.click();
  await expect(page.getByText("Ainda não recebemos este pagamento.", { exact: false })).toBeVisible();
  await expect(page.getByLabel("Pix copia e cola")).toHaveValue(code);

  const txid = await links.findLinkPixTxid(link.linkPaymentUuid);
  expect(txid).toBeTruthy();
  await sandbox.payPixCharge(txid!);
  // The page reads the gateway at most once a second and the webhook may still be on its way: like a payer, the
  // test asks again until the payment is known.
  await expect(async () => {
    await check.click();
    await expect(page.getByRole("heading", { name: "Pagamento confirmado" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await pay.expectPaid();
  await expect(page.getByText("Recebemos R$ 42,50 por Pix. Obrigado!")).toBeVisible();
});
