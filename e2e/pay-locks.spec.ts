import type { Browser } from "@playwright/test";
import pg from "pg";
import { PayPage } from "./pages/pay-page";
import { expect, test } from "./pay-gateway";
import { storageStateFile, type TDatabase } from "./targets";

// The payer's side of the attempt limits (lib/links/card-attempts.ts, lib/links/pay-page-card.ts). Each test arrives from
// its own address (e2e/fixtures.ts), so the per-address card limit does not leak into other specs.

async function staffLinkPage(browser: Browser, database: TDatabase, linkPaymentUuid: string) {
  const context = await browser.newContext({ storageState: storageStateFile(database, "staff") });
  const page = await context.newPage();
  await page.goto(`/links/${linkPaymentUuid}`);
  return { page, close: () => context.close() };
}

test("[PAY] after three refused cards the card form is locked with its reason, shown to staff too", async ({
  page,
  browser,
  database,
  links,
}) => {
  const link = await links.createLink({ valor: 80, numeroParcelas: 1 });
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await pay.verify(link.tokenVerificacao);

  // Three different refused cards: the same card again would be stopped by its advice code first.
  for (const number of ["4000000000000002", "4000000000009995", "4000000000000069"]) {
    const answered = page.waitForResponse((response) => response.request().method() === "POST");
    await pay.payByCard({ number });
    await answered;
    await expect(page.getByText("O pagamento não foi aprovado. Confira os dados ou use outro cartão.")).toBeVisible();
    await expect(pay.cardNumber).toHaveValue("");
  }
  // Even a good card is not sent now: the form gives way to the reason.
  await pay.payByCard({ number: "4111111111111111" });
  const lockMessage = page.getByRole("alert").filter({
    hasText:
      /^Por segurança, o pagamento com cartão deste link está suspenso até \d{2}:\d{2}, depois de várias tentativas recusadas\. Você pode pagar com Pix, se disponível, ou tentar mais tarde\.$/,
  });
  await expect(lockMessage).toBeVisible();
  await expect(pay.cardNumber).toHaveCount(0);
  await page.reload();
  await expect(lockMessage).toBeVisible();
  await expect(pay.cardNumber).toHaveCount(0);

  const staff = await staffLinkPage(browser, database, link.linkPaymentUuid);
  await expect(
    staff.page.getByText(
      /Pagamentos com cartão na página de pagamento bloqueados até \d{2}:\d{2} após 3 tentativas recusadas \(proteção contra teste de cartões\)\. O Pix continua disponível\./,
    ),
  ).toBeVisible();
  await expect(staff.page.getByText("Pago", { exact: true })).toHaveCount(0);
  await staff.close();
});

test("[PAY] a card refused with advice 03 is not tried again on the link, and another card still pays", async ({
  page,
  links,
}) => {
  const link = await links.createLink({ valor: 60, numeroParcelas: 1 });
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await pay.verify(link.tokenVerificacao);

  await pay.payByCard({ number: "4000000000000002" });
  await expect(page.getByText("O pagamento não foi aprovado. Confira os dados ou use outro cartão.")).toBeVisible();
  await pay.payByCard({ number: "4000000000000002" });
  await expect(
    page.getByText(
      "Seu banco pediu para não tentarmos este cartão de novo neste pagamento. Use outro cartão ou pague com Pix, se disponível.",
    ),
  ).toBeVisible();
  await expect(pay.cardNumber).toHaveValue("");
  await pay.payByCard({ number: "5555555555554444" });
  await pay.expectPaid();
});

test("[PAY] after too many wrong codes the link takes no more codes, and staff see why", async ({
  page,
  browser,
  database,
  databaseUrl,
  links,
}) => {
  const link = await links.createLink();
  const wrong = link.tokenVerificacao === 123456 ? 654321 : 123456;
  // 19 wrong codes are spread over windows of 15 min to 24 h: the run stands in for that time by writing the
  // link's lifetime count of wrong codes itself.
  const client = new pg.Client({ connectionString: databaseUrl! });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "RateLimitBucket" ("key", "windowStart", "count", "expiresAt")
       VALUES ($1, now(), 19, now() + interval '400 days')`,
      [`pay-verify:wrong:${link.linkPaymentUuid}`],
    );
  } finally {
    await client.end();
  }

  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await pay.enterCode(wrong);
  await expect(page.getByText("Código incorreto.", { exact: false })).toBeVisible();
  // The 20th wrong code was the last: even the right one is refused now, with no retry time.
  const lockMessage = page.getByText(
    "Este link não aceita mais códigos depois de muitas tentativas incorretas. Peça à loja um novo link de pagamento.",
  );
  await pay.enterCode(link.tokenVerificacao);
  await expect(lockMessage).toBeVisible();
  await expect(page.getByText("Parcelas")).toBeHidden();
  await page.reload();
  await pay.enterCode(link.tokenVerificacao);
  await expect(lockMessage).toBeVisible();

  const staff = await staffLinkPage(browser, database, link.linkPaymentUuid);
  await expect(
    staff.page.getByText(
      "O pagador não pode mais digitar o código de verificação: 20 códigos incorretos foram tentados",
      { exact: false },
    ),
  ).toBeVisible();
  await staff.close();
});
