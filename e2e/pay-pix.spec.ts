import { PayPage } from "./pages/pay-page";
import { expect, test } from "./pay-gateway";

test("[PAY] a link paid by Pix through the sandbox turns to success", { tag: "@money" }, async ({
  page,
  links,
  sandbox,
}) => {
  const link = await links.createLink({ valor: 42.5, numeroParcelas: 1 });
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await pay.verify(link.tokenVerificacao);
  await pay.chooseMethod("Pix");
  await page.getByRole("button", { name: "Gerar código Pix" }).click();
  await expect(page.getByRole("img", { name: "QR Code Pix do pagamento" })).toBeVisible();
  const code = await page.getByLabel("Pix copia e cola").inputValue();
  expect(code).toMatch(/^000201/);

  // Once per link: asking again (a reload, a second click) reuses the same charge.
  await page.reload();
  await pay.chooseMethod("Pix");
  await page.getByRole("button", { name: "Gerar código Pix" }).click();
  await expect(page.getByLabel("Pix copia e cola")).toHaveValue(code);

  const txid = await links.findLinkPixTxid(link.linkPaymentUuid);
  expect(txid).toBeTruthy();
  await sandbox.payPixCharge(txid!);
  await pay.expectPaid();
  await expect(page.getByText("Recebemos R$ 42,50 por Pix. Obrigado!")).toBeVisible();
});
