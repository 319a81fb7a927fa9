import { randomBytes } from "node:crypto";

import { signedOut } from "./fixtures";
import { NewPaymentLinkPage } from "./pages/new-payment-link-page";
import { PayPage } from "./pages/pay-page";
import { PaymentLinkPage } from "./pages/payment-link-page";
import { expect, test } from "./sandbox-control";

test.use({ role: "staff" });

test("[LINKS] staff share a link; a payer without a session fails the code once, pays in 3 installments, and the staff page turns paid live", {
  tag: "@money",
}, async ({ page, browser }) => {
  test.setTimeout(120_000);
  // Unique per run: the list is filtered down to this link.
  const reference = `pedido-${randomBytes(4).toString("hex")}`;
  const uuid = await new NewPaymentLinkPage(page).create({
    payerName: "Fulano de Tal",
    document: "529.982.247-25",
    amount: "100,00",
    installments: 3,
    description: "Pedido 77",
    reference,
  });
  const link = new PaymentLinkPage(page);
  await link.expectStatus("Ativo", 1);
  await expect(link.paymentUrl).toHaveValue(new RegExp(`/pay/${uuid}$`));
  const code = (await link.verificationCode.textContent())!.trim();
  expect(code).toMatch(/^\d{6}$/);
  const whatsapp = link.share.getByRole("link", { name: "Enviar por WhatsApp" });
  const whatsappText = decodeURIComponent(new URL((await whatsapp.getAttribute("href"))!).searchParams.get("text")!);
  expect(whatsappText).toContain(`/pay/${uuid}`);
  expect(whatsappText).toMatch(/R\$\s100,00/);
  // The code travels by another channel, never with the link.
  expect(whatsappText).not.toContain(code);
  expect(await link.share.getByRole("link", { name: "Enviar por e-mail" }).getAttribute("href")).toMatch(
    /^mailto:\?subject=/,
  );
  await expect(link.share.getByRole("link", { name: "Baixar QR code (PNG)" })).toHaveAttribute(
    "download",
    `link-${uuid}.png`,
  );
  await page.evaluate(() => Object.assign(window, { e2eNoReload: true }));

  // The payer: another browser context, no staff session.
  const payerContext = await browser.newContext({
    ...signedOut,
    locale: "pt-BR",
    viewport: page.viewportSize() ?? undefined,
  });
  const payerPage = await payerContext.newPage();
  const pay = new PayPage(payerPage);
  await pay.goto(uuid);
  const wrongCode = code === "123456" ? "654321" : "123456";
  await pay.enterCode(wrongCode);
  await expect(payerPage.getByRole("alert").filter({ hasText: /incorreto/i })).toBeVisible();
  await pay.verify(code);
  await pay.chooseInstallments(3);
  await pay.payByCard({ number: "4111111111111111" });
  await pay.expectPaid();
  await payerContext.close();

  await link.expectStatus("Pago", 3, { timeout: 35_000 });
  expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
  await expect(link.paymentValue("Forma de pagamento")).toHaveText("Cartão de crédito");
  await expect(link.paymentValue("Comprovante")).not.toHaveText("—");
  await expect(link.share).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Cancelar link" })).toHaveCount(0);

  await page.goto(`/links?status=PAGO&userReference=${reference}`);
  await expect(page).toHaveURL(/status=PAGO/);
  await expect(page.getByRole("row").filter({ hasText: "Fulano de Tal" })).toContainText("Pago");
});

test("[LINKS] staff see field errors, create a link for a foreign payer, cancel it after confirming, and an unknown link is a 404", async ({
  page,
}) => {
  const form = new NewPaymentLinkPage(page);
  await form.goto();
  await form.fill({
    payerName: "Fulano",
    document: "123.456.789-00",
    amount: "10,00",
    installments: 2,
    methods: ["Pix"],
  });
  await form.submit();
  await expect(form.field("CPF ou CNPJ")).toHaveAccessibleDescription(/CPF ou CNPJ inválido/);
  await expect(page.getByRole("combobox", { name: "Parcelas" })).toHaveAccessibleDescription(
    /Parcelas só valem para cartão/,
  );
  await expect(page).toHaveURL(/\/links\/new$/);

  const document = `P${randomBytes(4).toString("hex").toUpperCase()}`;
  const uuid = await form.create({ payerName: "John Smith", document, isForeign: true, amount: "45,00" });
  const link = new PaymentLinkPage(page);
  await link.expectStatus("Ativo", 1);
  await expect(page.getByText(`${document} (estrangeiro)`)).toBeVisible();

  await page.getByRole("button", { name: "Cancelar link" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Manter link" }).click();
  // While it closes, the dialog's own "Cancelar link" is the only one a role query finds (the page behind is hidden).
  await expect(page.getByRole("alertdialog")).toBeHidden();
  await link.expectStatus("Ativo", 1);
  await link.cancel();
  await link.expectStatus("Cancelado", 4);
  await expect(page.getByRole("heading", { name: "Link cancelado" })).toBeVisible();

  await page.goto(`/links?status=CANCELADO&document=${document}`);
  await expect(page.getByRole("row").filter({ hasText: "John Smith" })).toContainText("Cancelado");
  expect((await link.goto("00000000-0000-4000-8000-000000000000"))!.status()).toBe(404);
  expect((await link.goto(uuid))!.status()).toBe(200);
});

test("[LINKS] a link expired upstream shows as expired and can still be cancelled", async ({ page, sandbox }) => {
  const uuid = await new NewPaymentLinkPage(page).create({
    payerName: "Beltrana",
    document: "11.222.333/0001-81",
    amount: "5,00",
  });
  await sandbox.expirePaymentLink(uuid);
  const link = new PaymentLinkPage(page);
  await link.goto(uuid);
  await link.expectStatus("Expirado", 2);
  await expect(page.getByRole("heading", { name: "Link expirado" })).toBeVisible();
  await link.cancel();
  await link.expectStatus("Cancelado", 4);
});
