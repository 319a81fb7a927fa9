import pg from "pg";
import { HttpBackend, type PaymentApp, PosClient } from "../lib/pos-sdk";
import { signSellerToken } from "../lib/pos-sdk/testing/seller-token";
import { expect, test } from "./fixtures";
import { freshVisaNumber, TerminalPage } from "./pages/terminal-page";
import { targetOf } from "./targets";

// The point of sale end to end: an admin creates a tenant key, its seller-token secret and the tenant's default
// configuration, a device activates with the TypeScript client, the admin brands its screen, and a sale reported by
// the device is matched to the card payment the gateway holds.

test.use({ role: "admin" });

test("[POS] key → PDV activated by the client → branding → a reported sale is matched to its card payment", async ({
  page,
  database,
  databaseUrl,
}) => {
  expect(databaseUrl, "the PostgreSQL database of the run, read for the card payment's NSUs").toBeTruthy();
  test.setTimeout(120_000);
  const readOnce = (label: string) => page.getByRole("textbox", { name: label, exact: true }).inputValue();

  await page.goto("/pos/keys");
  await page.getByRole("button", { name: "Nova chave de API" }).click();
  const keyName = `Loja e2e ${Date.now()}`;
  await page.getByRole("dialog").getByRole("textbox", { name: "Nome", exact: true }).fill(keyName);
  await page.getByRole("dialog").getByRole("button", { name: "Criar chave" }).click();
  const apiKey = await readOnce("Chave de API");
  expect(apiKey).toMatch(/^pos_/);
  await expect(page.getByRole("dialog")).toContainText("Authorization: Bearer <chave> em toda chamada /v1.");
  await page.getByRole("dialog").getByRole("button", { name: "Concluir" }).click();

  const keyRow = page.getByRole("row").filter({ hasText: keyName });
  await keyRow.getByRole("button", { name: "Token de vendedor" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Salvar" }).click();
  const secret = await readOnce("Segredo HS256");
  expect(secret.length).toBeGreaterThanOrEqual(32);
  await page.getByRole("dialog").getByRole("button", { name: "Fechar" }).first().click();

  // The tenant's default configuration: a PDV activated before anyone configures its seller gets it (without it
  // the configuration call is a 422 "not configured").
  await keyRow.getByRole("link", { name: /^Configuração padrão do tenant/ }).click();
  await expect(page).toHaveURL(/\/pos\/tenants\//);
  const fill = (label: string, value: string) => page.getByRole("textbox", { name: label, exact: true }).fill(value);
  await fill("Código da empresa no gateway", "E2E0001");
  await fill("Endereço do gateway (host:porta)", "gw.example.com:8443");
  await fill("CPF ou CNPJ do lojista", "11222333000181");
  await fill("Modo de comunicação externa", "1");
  await fill("CNPJ da empresa de automação", "11222333000181");
  await fill("CNPJ do facilitador", "11222333000181");
  await page.getByRole("combobox", { name: "Token", exact: true }).selectOption("replace");
  await page.getByLabel("Novo token", { exact: true }).fill("e2e-tls-token");
  await page.getByRole("button", { name: "Salvar configuração", exact: true }).click();
  await expect(page.getByText("Configuração salva").first()).toBeVisible();

  const backend = new HttpBackend({ apiKey, baseUrl: targetOf(database).appUrl });
  const sellerToken = await signSellerToken({ secret, audience: "payments-dashboard-pos" }, `loja-${Date.now()}`);
  const activation = await backend.activateSeller(sellerToken);
  expect(activation.posId).toBeTruthy();

  await page.goto(`/pos/sellers/${encodeURIComponent(activation.sellerId)}`);
  await page.getByRole("textbox", { name: "Cor primária", exact: true }).first().fill("#0a7a3d");
  await page.getByRole("button", { name: "Salvar configuração", exact: true }).click();
  await expect(page.getByText("Configuração salva").first()).toBeVisible();
  const config = await backend.fetchTransactionConfig(activation.posId);
  expect(config.branding.primaryColor).toBe("#0a7a3d");
  expect(config).toMatchObject({
    empresaGateway: "E2E0001",
    enderecoGateway: "gw.example.com:8443",
    tokenRegistroTls: "e2e-tls-token",
  });

  // The card payment the device's payment application made, as the gateway (and the mirror) holds it.
  const paymentId = await new TerminalPage(page).charge({
    amount: "58,90",
    number: freshVisaNumber(),
    securityCode: "321",
  });
  const client = new pg.Client({ connectionString: databaseUrl! });
  await client.connect();
  const { rows } = await client
    .query(`SELECT "authorizationNumber", "hostUsn", "gatewayUsn", "amountCents" FROM "CardPayment" WHERE id = $1`, [
      paymentId,
    ])
    .finally(() => client.end());
  const payment = rows[0] as { authorizationNumber: string; hostUsn: string; gatewayUsn: string; amountCents: number };
  const paymentApp: PaymentApp = {
    pay: async (intent) => ({
      approved: true,
      codResp: 0,
      nsuGateway: payment.gatewayUsn,
      nsuHost: payment.hostUsn,
      cardBrand: "VISA",
      acquirerNetwork: "SANDBOX",
      authorizationCode: payment.authorizationNumber,
      installments: intent.installments,
    }),
  };
  const sale = await new PosClient({ apiKey, backend }).sale({
    posId: activation.posId,
    amountInCents: payment.amountCents,
    installments: 1,
    paymentApp,
  });
  expect(sale).toMatchObject({ isReported: true, payment: { approved: true } });

  await page.goto(`/pos/sales?posId=${encodeURIComponent(activation.posId)}`);
  await page.getByRole("button", { name: "Conciliar agora" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Conciliar agora" }).click();
  await expect(page.getByText("Conciliação concluída").first()).toBeVisible();
  await page.reload();
  const saleRow = page.getByRole("row").filter({ hasText: activation.posId }).first();
  await expect(saleRow).toContainText("R$ 58,90");
  await expect(saleRow).toContainText("Conciliada");
});
