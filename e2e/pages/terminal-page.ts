import { expect, type Page } from "@playwright/test";

export type TTerminalCharge = {
  amount: string;
  plan?: string;
  installments?: number;
  number: string;
  securityCode: string;
  /** Replaces the suggested `VT-…` order id. */
  orderId?: string;
};

/** A Visa number that passes Luhn, different on every call: the sandbox authorizes any valid number it does not list. */
export function freshVisaNumber(): string {
  const body = `4${String(Math.floor(Math.random() * 1e14)).padStart(14, "0")}`;
  const sum = [...body].reverse().reduce((total, char, index) => {
    const digit = Number(char) * (index % 2 === 0 ? 2 : 1);
    return total + (digit > 9 ? digit - 9 : digit);
  }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

// The virtual terminal at /payments/new.
export class TerminalPage {
  constructor(private readonly page: Page) {}

  /** By role and name: a required field's label also holds a hidden "*", which getByLabel would need. */
  field(name: string) {
    return this.page.getByRole("textbox", { name, exact: true });
  }

  /** Charges a typed card and returns the payment id of the page it opens. */
  async charge(charge: TTerminalCharge): Promise<string> {
    await this.submit(charge);
    await this.page.waitForURL(/\/payments\/[0-9a-f-]{36}$/);
    return new URL(this.page.url()).pathname.split("/").pop()!;
  }

  /** Fills the form and submits it, without waiting for a payment page (the form may answer with a message). */
  async submit(charge: TTerminalCharge): Promise<void> {
    await this.page.goto("/payments/new");
    await expect(this.page.getByRole("heading", { name: "Novo pagamento com cartão" })).toBeVisible();
    await this.field("Valor").fill(charge.amount);
    if (charge.orderId) await this.field("Identificação do pedido").fill(charge.orderId);
    if (charge.plan) await this.page.getByRole("radio", { name: new RegExp(charge.plan) }).check();
    if (charge.installments)
      await this.page.getByRole("combobox", { name: "Parcelas" }).selectOption(String(charge.installments));
    await this.field("Número do cartão").fill(charge.number);
    await this.field("Validade").fill("12/30");
    await this.field("Código de segurança").fill(charge.securityCode);
    await this.page.getByRole("button", { name: /^Cobrar R\$/ }).click();
  }
}
