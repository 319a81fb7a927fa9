import { expect, type Locator, type Page } from "@playwright/test";

/** The payer's hosted page, /pay/{uuid}, in Portuguese (the default). */
export class PayPage {
  readonly codeInput: Locator;
  readonly cardNumber: Locator;
  readonly holderName: Locator;
  readonly expiry: Locator;
  readonly securityCode: Locator;
  readonly formError: Locator;

  constructor(private readonly page: Page) {
    this.codeInput = page.getByLabel("Código de verificação");
    this.cardNumber = page.getByLabel("Número do cartão");
    this.holderName = page.getByLabel("Nome impresso no cartão");
    this.expiry = page.getByLabel("Validade");
    this.securityCode = page.getByLabel("CVV");
    this.formError = page.getByRole("alert").filter({ hasNotText: /^$/ });
  }

  async goto(linkPaymentUuid: string) {
    return this.page.goto(`/pay/${linkPaymentUuid}`);
  }

  async enterCode(code: string | number) {
    // The form resets itself after the previous answer, which may land just after this fill: a reset field is
    // refused by the browser and sends nothing, so fill again until a POST goes out. Then wait for the server's
    // answer: the previous attempt's message may still be on screen.
    await expect(async () => {
      await this.codeInput.fill(String(code));
      const sent = this.page.waitForRequest((request) => request.method() === "POST", { timeout: 2_000 });
      await this.page.getByRole("button", { name: "Continuar" }).click();
      const request = await sent;
      await request.response();
    }).toPass({ timeout: 30_000 });
  }

  async verify(code: string | number) {
    await this.enterCode(code);
    await expect(this.page.getByText("Parcelas")).toBeVisible();
  }

  async chooseMethod(name: "Cartão de crédito" | "Pix") {
    await this.page.getByText(name, { exact: true }).click();
  }

  async chooseInstallments(count: number) {
    await this.page
      .getByRole("radio", {
        name: count === 1 ? /^À vista/ : new RegExp(`^(${count}× de|1× de .* \\+ ${count - 1}× de)`),
      })
      .check();
  }

  async payByCard(card: { number: string; holder?: string; expiry?: string; securityCode?: string }) {
    await this.cardNumber.pressSequentially(card.number);
    await this.holderName.fill(card.holder ?? "FULANO DE TAL");
    await this.expiry.fill("");
    await this.expiry.pressSequentially(card.expiry ?? "1230");
    await this.securityCode.fill(card.securityCode ?? "123");
    await this.page.getByRole("button", { name: /^Pagar / }).click();
  }

  async expectPaid() {
    await expect(this.page.getByRole("heading", { name: "Pagamento confirmado" })).toBeVisible({ timeout: 20_000 });
  }
}
