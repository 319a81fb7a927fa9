import { NewPixChargePage } from "./pages/new-pix-charge-page";
import { PixChargePage } from "./pages/pix-charge-page";
import { expect, test } from "./sandbox-control";

test.use({ role: "staff" });

test("[PIX] staff sees a charge turn paid without reload", { tag: "@money" }, async ({ page, sandbox }) => {
  test.setTimeout(90_000);
  const txid = await new NewPixChargePage(page).create({
    amount: "25,90",
    debtorName: "Fulano de Tal",
    debtorDocument: "529.982.247-25",
    description: "Pedido 123",
    reference: "pedido-123",
  });
  const charge = new PixChargePage(page);
  await charge.expectStatus("Aguardando pagamento", "ACTIVE");
  await expect(page.getByText("R$ 25,90").first()).toBeVisible();
  await expect(charge.qrCode).toBeVisible();
  const code = await charge.copyAndPasteCode.inputValue();
  expect(code).toMatch(/^000201/);
  expect(await charge.readQrCode()).toBe(code);
  await expect(page.getByRole("timer")).toHaveAccessibleName(/Expira em (59|1:00):\d\d/);

  // A marker on the window survives only if the page is never reloaded.
  await page.evaluate(() => Object.assign(window, { e2eNoReload: true }));
  await sandbox.payPixCharge(txid, { payerName: "Beltrana Pagadora", payerDocumentNumber: "11222333000181" });
  // On PostgreSQL no webhook is registered, so the page learns of the payment by polling the read
  // endpoint (use-pix-charge.ts: every 1.5 s while nothing pushes); on PGlite the app's own webhook
  // pushes it, as in the demo. Two seconds plus one poll of slack.
  await charge.expectStatus("Paga", "PAID", { timeout: 3_500 });
  expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
  await expect(page.getByText("Beltrana Pagadora")).toBeVisible();
  await expect(page.getByText("11.222.333/0001-81")).toBeVisible();
  await expect(charge.qrCode).toHaveCount(0);

  await page.goto(`/pix?txid=${txid.slice(0, 10)}`);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: txid }) });
  await expect(row).toContainText("Paga");
  await expect(row).toContainText("R$ 25,90");
});

test("[PIX] staff refunds half, then the rest, and a third refund is refused", { tag: "@money" }, async ({
  page,
  sandbox,
}) => {
  const txid = await new NewPixChargePage(page).create({ amount: "25,90" });
  await sandbox.payPixCharge(txid);
  const charge = new PixChargePage(page);
  await charge.goto(txid);
  await charge.expectStatus("Paga", "PAID");
  // Never pre-filled with the whole value, and nothing is sent before the confirmation.
  await expect(charge.refundAmountField()).toHaveValue("");
  await charge.refundAmountField().fill("12,95");
  await charge.refunds.getByRole("button", { name: "Devolver", exact: true }).click();
  const confirmation = page.getByRole("alertdialog");
  await expect(confirmation).toContainText("R$ 12,95 volta para a conta do pagador por Pix.");
  await expect(confirmation).toContainText("ainda poderá devolver R$ 12,95");
  await confirmation.getByRole("button", { name: "Cancelar" }).click();
  await expect(confirmation).toHaveCount(0);
  await expect(charge.summaryValue("Devolvido")).toHaveText("R$ 0,00");

  // The deadline reads as a date, with the days left beside it.
  await expect(charge.summaryValue("Prazo para devolver")).toContainText(/^Até \d{2}\/\d{2}\/\d{4}/);
  await expect(charge.summaryValue("Prazo para devolver")).toContainText("90 dias restantes");

  await charge.refund("12,95", "Metade devolvida");
  await charge.expectStatus("Devolvida em parte", "PARTIALLY REFUNDED");
  // The success toast sits below the header: the user's name, language switch and "Sair" stay visible.
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Devolução solicitada." });
  await expect(toast).toBeVisible();
  const toastBox = (await toast.boundingBox())!;
  const headerBox = (await page.locator("header").first().boundingBox())!;
  expect(toastBox.y).toBeGreaterThan(headerBox.y + headerBox.height);
  await expect(charge.summaryValue("Ainda pode devolver")).toHaveText("R$ 12,95");
  await expect(charge.refunds.getByRole("row", { name: /Metade devolvida/ })).toContainText("Devolvida");
  await expect(charge.refundAmountField()).toHaveValue("");

  // A second screen that has not heard of the first one's refund (its push stream is cut, and a
  // paid charge is not polled) still offers R$ 12,95: the server must refuse it.
  const stalePage = await page.context().newPage();
  await stalePage.route("**/api/events**", (route) => route.abort());
  const staleCharge = new PixChargePage(stalePage);
  // The page reads the charge once on arrival (use-pix-charge.ts); let that read land first.
  const arrivalRead = stalePage.waitForResponse((response) => response.url().includes(`/api/pix/charges/${txid}`));
  await staleCharge.goto(txid);
  await arrivalRead;
  await expect(staleCharge.summaryValue("Ainda pode devolver")).toHaveText("R$ 12,95");

  await charge.refund("12,95");
  await charge.expectStatus("Devolvida", "REFUNDED");
  await expect(charge.summaryValue("Ainda pode devolver")).toHaveText("R$ 0,00");
  await expect(charge.refunds.getByText("Esta cobrança foi devolvida integralmente")).toBeVisible();
  await expect(charge.refundAmountField()).toHaveCount(0);

  await staleCharge.refundAmountField().fill("12,95");
  await staleCharge.refunds.getByRole("button", { name: "Devolver", exact: true }).click();
  await stalePage.getByRole("alertdialog").getByRole("button", { name: "Devolver R$ 12,95" }).click();
  await expect(stalePage.getByRole("alert").filter({ hasText: "Devolução recusada" })).toBeVisible();
  await staleCharge.expectStatus("Devolvida", "REFUNDED");
  await expect(staleCharge.refunds.getByRole("row")).toHaveCount(3);
  await stalePage.close();

  await page.goto(`/refunds?txid=${txid}`);
  await expect(page.getByRole("row").filter({ hasText: "R$ 12,95" })).toHaveCount(2);
});

test("[PIX] staff cancels an unpaid charge after confirming", async ({ page }) => {
  const txid = await new NewPixChargePage(page).create({ amount: "10,00" });
  const charge = new PixChargePage(page);
  await charge.expectStatus("Aguardando pagamento", "ACTIVE");

  await page.getByRole("button", { name: "Cancelar cobrança" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Manter cobrança" }).click();
  await expect(page.getByRole("alertdialog")).toBeHidden();
  await charge.expectStatus("Aguardando pagamento", "ACTIVE");

  await charge.cancel();
  await charge.expectStatus("Cancelada", "Cancelada");
  await expect(page.getByRole("heading", { name: "Cobrança cancelada" })).toBeVisible();
  await expect(charge.qrCode).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Cancelar cobrança" })).toHaveCount(0);

  await charge.goto(txid);
  await charge.expectStatus("Cancelada", "Cancelada");
});

test("[PIX] cancelling a charge paid meanwhile is refused with a clear message", async ({ page, sandbox }) => {
  const txid = await new NewPixChargePage(page).create({ amount: "10,00" });
  await page.getByRole("button", { name: "Cancelar cobrança" }).click();
  await sandbox.payPixCharge(txid);
  const dialog = page.getByRole("alertdialog");
  await dialog.getByRole("button", { name: "Cancelar cobrança" }).click();
  await expect(dialog.getByRole("alert")).toContainText("não pode mais ser cancelada");
  await dialog.getByRole("button", { name: "Fechar" }).click();
  await new PixChargePage(page).expectStatus("Paga", "PAID");
});

test("[PIX] bad inputs show field errors and create nothing", async ({ page }) => {
  const form = new NewPixChargePage(page);
  await form.goto();
  await form.fill({ amount: "0,00", debtorName: "Fulano de Tal", debtorDocument: "123.456.789-00" });
  await form.submit();
  await form.expectFieldError("Valor", "Informe um valor maior que zero.");
  await form.expectFieldError("CPF ou CNPJ", "Este CPF ou CNPJ não é válido: confira os dígitos.");
  await expect(page).toHaveURL(/\/pix\/new$/);

  await form.fill({ amount: "1,00", debtorName: "", debtorDocument: "11.222.333/0001-81" });
  await form.submit();
  await form.expectFieldError("Nome do pagador", "Informe o nome do pagador, ou deixe o pagador em branco.");
  await expect(page).toHaveURL(/\/pix\/new$/);
});

test("[PIX] an unknown charge answers 404", async ({ page }) => {
  const response = await page.goto("/pix/UNKNOWNTXID0000000000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Página não encontrada" })).toBeVisible();
});

test("[PIX] the list shows when an unpaid charge expires, a paid charge's state instead, and cards on a phone", async ({
  page,
  sandbox,
}) => {
  const txid = await new NewPixChargePage(page).create({ amount: "17,30", reference: "lista-celular" });
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: txid }) });
  await page.goto(`/pix?txid=${txid}`);
  await expect(row).toContainText(/Expira em \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/);

  await page.goto(`/pix/${txid}`);
  await sandbox.payPixCharge(txid);
  await new PixChargePage(page).expectStatus("Paga", "PAID");

  await page.goto(`/pix?txid=${txid}`);
  await expect(row).toContainText("Paga: não expira mais");
  await expect(row).not.toContainText("Expira em");
  await expect(page.getByRole("columnheader", { name: "Validade" })).toBeVisible();

  // On a phone each charge is a card with every value, labelled, not just the date and txid.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row.getByRole("link", { name: txid })).toBeVisible();
  for (const text of ["R$ 17,30", "Paga", "lista-celular", "Valor", "Situação"])
    await expect(row.getByText(text, { exact: true }).first()).toBeVisible();
  const rowBox = (await row.boundingBox())!;
  expect(rowBox.x + rowBox.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("[PIX] on a phone the list's filters fold behind one button that counts those in use, and the list comes first", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/pix");
  const form = page.getByRole("form", { name: "Filtros" });
  const toggle = page.getByRole("button", { name: "Filtros", exact: true });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(form).toBeHidden();
  // The header's actions start at the same edge: the refresh button's empty progress text takes no room.
  const refreshBox = (await page.getByRole("button", { name: "Atualizar pelo gateway" }).boundingBox())!;
  const newChargeBox = (await page.getByRole("link", { name: "Nova cobrança" }).first().boundingBox())!;
  expect(refreshBox.x).toBe(newChargeBox.x);

  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await form.getByLabel("Situação").selectOption({ label: "Paga" });
  await form.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/[?&]status=PAID/);
  const filtered = page.getByRole("button", { name: "Filtros · 2 em uso" });
  await expect(filtered).toHaveAttribute("aria-expanded", "false");
  await expect(form).toBeHidden();

  // Wider than a phone, the form is always open and the button is gone.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(form).toBeVisible();
  await expect(filtered).toBeHidden();
});
