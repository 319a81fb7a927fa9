import { PayPage } from "./pages/pay-page";
import { expect, test } from "./pay-gateway";
import { storageStateFile } from "./targets";

// A Pix payment that lands after its link was cancelled (upstream has no tie between the two): the staff link page
// shows it as owed back, with one button to refund it (lib/links/pix.ts, getLinkPixRefundDue).
test("[LINKS] staff refunds a Pix payment that landed on a cancelled link", async ({
  page,
  browser,
  database,
  links,
  sandbox,
}) => {
  const link = await links.createLink({ valor: 37.5, numeroParcelas: 1 });
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await pay.verify(link.tokenVerificacao);
  await pay.chooseMethod("Pix");
  await page.getByRole("button", { name: "Gerar código Pix" }).click();
  await expect(page.getByLabel("Pix copia e cola")).toHaveValue(/^000201/);
  const txid = await links.findLinkPixTxid(link.linkPaymentUuid);
  expect(txid).toBeTruthy();

  // Cancelled upstream while the payer still holds the code (the dashboard's own cancel would close the charge
  // first), then the payer's bank settles it.
  await links.cancelLink(link.linkPaymentUuid);
  await sandbox.payPixCharge(txid!);

  const staffContext = await browser.newContext({ storageState: storageStateFile(database, "staff") });
  const staffPage = await staffContext.newPage();
  await staffPage.goto(`/links/${link.linkPaymentUuid}`);
  const due = staffPage.getByRole("region", { name: "Pagamento Pix a devolver" });
  await expect(due).toBeVisible();
  await expect(due).toContainText("R$ 37,50");
  await expect(due).toContainText(txid!);

  await due.getByRole("button", { name: "Devolver R$ 37,50" }).click();
  const dialog = staffPage.getByRole("alertdialog");
  await expect(dialog).toContainText("R$ 37,50 volta para a conta do pagador por Pix.");
  await dialog.getByRole("button", { name: "Devolver R$ 37,50" }).click();
  await expect(staffPage.getByText("Devolução solicitada.")).toBeVisible();
  await expect(due).toHaveCount(0);
  await staffPage.reload();
  await expect(staffPage.getByRole("heading", { name: "Pagamento Pix a devolver" })).toHaveCount(0);

  await staffPage.goto(`/pix/${txid}`);
  await expect(staffPage.getByTestId("pix-charge-status")).toHaveText("Devolvida");
  await staffContext.close();
});
