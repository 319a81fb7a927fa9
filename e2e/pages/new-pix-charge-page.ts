import { expect, type Page } from "@playwright/test";

export type TNewPixCharge = {
  amount: string;
  debtorName?: string;
  debtorDocument?: string;
  description?: string;
  reference?: string;
};

export class NewPixChargePage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/pix/new");
    await expect(this.page.getByRole("heading", { name: "Nova cobrança Pix" })).toBeVisible();
  }

  async fill(charge: TNewPixCharge) {
    await this.field("Valor").fill(charge.amount);
    if (charge.debtorName !== undefined) await this.field("Nome do pagador").fill(charge.debtorName);
    if (charge.debtorDocument !== undefined) await this.field("CPF ou CNPJ").fill(charge.debtorDocument);
    if (charge.description !== undefined) await this.field("Descrição").fill(charge.description);
    if (charge.reference !== undefined) await this.field("Referência").fill(charge.reference);
  }

  async submit() {
    await this.page.getByRole("button", { name: "Criar cobrança" }).click();
  }

  /** Creates the charge and returns its txid, read from the page it opens. */
  async create(charge: TNewPixCharge): Promise<string> {
    await this.goto();
    await this.fill(charge);
    await this.submit();
    await this.page.waitForURL(/\/pix\/[A-Za-z0-9]{26,35}$/);
    return new URL(this.page.url()).pathname.split("/").pop()!;
  }

  /** By role and name: a required field's label also holds a hidden "*", which getByLabel would need. */
  field(name: string) {
    return this.page.getByRole("textbox", { name, exact: true });
  }

  async expectFieldError(label: string, message: string) {
    const field = this.field(label);
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(new RegExp(escapeRegExp(message)));
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
