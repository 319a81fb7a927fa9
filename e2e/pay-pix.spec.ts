import { PayPage } from "./pages/pay-page";
import { expect, test } from "./pay-gateway";
import { storageStateFile } from "./targets";

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

// The gateway keeps a link paid by Pix CREATED (it cannot tie a Pix charge to a link): the payer cannot pay it
// again by card, and staff read that it was paid by Pix, with the charge that paid it.
test("[LINKS] a link paid by Pix shows as paid by Pix to staff, with its Pix charge", async ({
  page,
  browser,
  database,
  links,
  sandbox,
}) => {
  const link = await links.createLink({ valor: 19.9, numeroParcelas: 1 });
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await pay.verify(link.tokenVerificacao);
  await pay.chooseMethod("Pix");
  await page.getByRole("button", { name: "Gerar código Pix" }).click();
  await expect(page.getByLabel("Pix copia e cola")).toHaveValue(/^000201/);
  const txid = await links.findLinkPixTxid(link.linkPaymentUuid);
  expect(txid).toBeTruthy();
  await sandbox.payPixCharge(txid!);
  await pay.expectPaid();
  await page.reload();
  await pay.expectPaid();
  await expect(page.getByRole("textbox")).toHaveCount(0);

  const staffContext = await browser.newContext({ storageState: storageStateFile(database, "staff") });
  const staffPage = await staffContext.newPage();
  await staffPage.goto(`/links/${link.linkPaymentUuid}`);
  const payment = staffPage.getByRole("region", { name: "Pagamento recebido" });
  await expect(payment).toContainText("Pago por Pix na página de pagamento.");
  const charge = payment.getByRole("link", { name: `Abrir a cobrança Pix: ${txid}` });
  await expect(charge).toHaveAttribute("href", `/pix/${txid}`);
  await expect(staffPage.getByRole("button", { name: /Cancelar link/ })).toHaveCount(0);
  await staffContext.close();
});
