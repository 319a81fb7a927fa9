import { expect, type Page } from "@playwright/test";

export type TNewPaymentLink = {
  payerName: string;
  document: string;
  isForeign?: boolean;
  amount: string;
  installments?: number;
  methods?: ("Cartão de crédito" | "Pix")[];
  days?: number;
  description?: string;
  reference?: string;
};

export class NewPaymentLinkPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/links/new");
    await expect(this.page.getByRole("heading", { name: "Novo link de pagamento" })).toBeVisible();
  }

  async fill(link: TNewPaymentLink) {
    await this.field("Nome do pagador").fill(link.payerName);
    if (link.isForeign) await this.page.getByRole("checkbox", { name: /Pagador estrangeiro/ }).check();
    await this.field(link.isForeign ? "Documento estrangeiro" : "CPF ou CNPJ").fill(link.document);
    await this.field("Valor").fill(link.amount);
    if (link.installments)
      await this.page.getByRole("combobox", { name: "Parcelas" }).selectOption(String(link.installments));
    if (link.methods) {
      for (const name of ["Cartão de crédito", "Pix"] as const) {
        await this.page.getByRole("checkbox", { name, exact: true }).setChecked(link.methods.includes(name));
      }
    }
    if (link.days !== undefined)
      await this.page.getByRole("spinbutton", { name: "Validade (dias)" }).fill(String(link.days));
    if (link.description !== undefined) await this.field("Descrição").fill(link.description);
    if (link.reference !== undefined) await this.field("Referência").fill(link.reference);
  }

  async submit() {
    await this.page.getByRole("button", { name: "Criar link" }).click();
  }

  /** Creates the link and returns its uuid, read from the page it opens. */
  async create(link: TNewPaymentLink): Promise<string> {
    await this.goto();
    await this.fill(link);
    await this.submit();
    await this.page.waitForURL(/\/links\/[0-9a-f-]{36}$/);
    return new URL(this.page.url()).pathname.split("/").pop()!;
  }

  /** By role and name: a required field's label also holds a hidden "*". */
  field(name: string) {
    return this.page.getByRole("textbox", { name, exact: true });
  }
}
