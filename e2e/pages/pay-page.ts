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
    await this.codeInput.fill(String(code));
    // Waits for the server's answer: the previous attempt's message may still be on screen.
    const answered = this.page.waitForResponse((response) => response.request().method() === "POST");
    await this.page.getByRole("button", { name: "Continuar" }).click();
    await answered;
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
