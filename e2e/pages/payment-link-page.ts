import { expect, type Locator, type Page } from "@playwright/test";

export class PaymentLinkPage {
  readonly status: Locator;
  readonly share: Locator;
  readonly verificationCode: Locator;
  readonly paymentUrl: Locator;
  readonly payment: Locator;

  constructor(private readonly page: Page) {
    this.status = page.getByTestId("payment-link-status");
    this.share = page.getByRole("region", { name: "Compartilhar com o pagador" });
    this.verificationCode = page.getByTestId("verification-code");
    this.paymentUrl = page.getByLabel("Endereço da página de pagamento");
    this.payment = page.getByRole("region", { name: "Pagamento recebido" });
  }

  async goto(linkPaymentUuid: string) {
    return this.page.goto(`/links/${linkPaymentUuid}`);
  }

  /** `code` is the spec's status code (data-status); `label` the words on the badge. */
  async expectStatus(label: string, code: number, options: { timeout?: number } = {}) {
    await expect(this.status.locator("[data-status]")).toHaveAttribute("data-status", String(code), options);
    await expect(this.status).toHaveText(label);
  }

  /** The payment detail shown once paid ("Forma de pagamento", "Comprovante", "Transação"). */
  paymentValue(term: string): Locator {
    return this.payment.locator("dt", { hasText: term }).locator("xpath=following-sibling::dd[1]");
  }

  async cancel() {
    await this.page.getByRole("button", { name: "Cancelar link" }).click();
    const dialog = this.page.getByRole("alertdialog");
    await dialog.getByRole("button", { name: "Cancelar link" }).click();
    return dialog;
  }
}
