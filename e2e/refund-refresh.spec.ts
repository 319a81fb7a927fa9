import { NewPixChargePage } from "./pages/new-pix-charge-page";
import { PixChargePage } from "./pages/pix-charge-page";
import { expect, test } from "./sandbox-control";

test.use({ role: "staff" });

test("[PIX] staff sees a refund's end-to-end id and refreshes the refund from the gateway", async ({
  page,
  sandbox,
}) => {
  const txid = await new NewPixChargePage(page).create({ amount: "21,00" });
  await sandbox.payPixCharge(txid);
  const charge = new PixChargePage(page);
  await charge.goto(txid);
  await charge.expectStatus("Paga", "PAID");
  await charge.refund("4,00", "Ponta de estoque");
  const refundRow = charge.refunds.getByRole("row", { name: /Ponta de estoque/ });
  // The sandbox's end-to-end ids of refunds start with D (spec 2.8 refundEndToEnd).
  await expect(refundRow).toContainText(/D\d{8}/);

  await page.goto(`/refunds?txid=${txid}`);
  const row = page.getByRole("row").filter({ hasText: "Ponta de estoque" });
  await expect(row).toContainText(/D\d{8}/);
  await row.getByRole("button", { name: /Atualizar a devolução .* a partir do gateway/ }).click();
  await expect(page.getByText("Devolução lida de novo no gateway.")).toBeVisible();
  await expect(row).toContainText("Devolvida");
});
