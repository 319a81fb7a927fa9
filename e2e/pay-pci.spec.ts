import { findCardData } from "./card-data-leaks";
import { PayPage } from "./pages/pay-page";
import { expect, test } from "./pay-gateway";

// A test card with a security code unlikely to occur by chance in context.
const cardNumber = "5555555555554444";
const refusedCardNumber = "4000000000009995";
const securityCode = "8312";

test("[PAY] card number and security code are in no database row, log line or client bundle", async ({
  page,
  links,
  databaseUrl,
}) => {
  const link = await links.createLink({ valor: 77.7, numeroParcelas: 2 });
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await pay.verify(link.tokenVerificacao);
  // A refused attempt too: its error path must be as clean as the success path.
  await pay.payByCard({ number: refusedCardNumber, securityCode });
  await expect(page.getByText("O pagamento não foi aprovado.", { exact: false })).toBeVisible();
  await pay.chooseInstallments(2);
  await pay.payByCard({ number: cardNumber, securityCode });
  await pay.expectPaid();

  expect(databaseUrl, "the PostgreSQL database of the app under test").toBeTruthy();
  const found = await findCardData({
    cardNumbers: [cardNumber, refusedCardNumber],
    securityCode,
    databaseUrl: databaseUrl!,
    page,
    mustContain: link.linkPaymentUuid,
  });
  expect(found).toEqual([]);
});
