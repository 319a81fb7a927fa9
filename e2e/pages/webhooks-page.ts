import { expect, type Locator, type Page } from "@playwright/test";

// `secret` is null for this app's own receiver: the dialog never shows it to a person.
export type TRegisteredWebhook = { url: string; secret: string | null };

export class WebhooksPage {
  readonly table: Locator;

  constructor(private readonly page: Page) {
    this.table = page.getByRole("table", { name: "Webhooks registrados no gateway" });
  }

  async goto() {
    await this.page.goto("/webhooks");
    await expect(this.page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  }

  /** Registers with the default URL (this app's receiver) and every event; returns what the dialog showed once. */
  async register(): Promise<TRegisteredWebhook> {
    await this.page.getByRole("button", { name: "Registrar webhook" }).click();
    const dialog = this.page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Registrar", exact: true }).click();
    return this.readSecretOnce(dialog);
  }

  /** Reads the one-time secret (none for this app's receiver), copies it with the dialog's button, and closes it. */
  private async readSecretOnce(dialog: Locator): Promise<TRegisteredWebhook> {
    const url = await dialog.getByLabel("URL do webhook").inputValue();
    if (url.includes("/api/webhooks/gateway/")) {
      await expect(dialog.getByText("o painel guarda o segredo de assinatura criptografado")).toBeVisible();
      await expect(dialog.getByLabel("Segredo de assinatura")).toHaveCount(0);
      // The footer button and the corner one both close it.
      await dialog.getByRole("button", { name: "Fechar", exact: true }).first().click();
      await expect(dialog).toHaveCount(0);
      return { url, secret: null };
    }
    const secret = await dialog.getByLabel("Segredo de assinatura").inputValue();
    await dialog.getByRole("button", { name: "Copiar segredo" }).click();
    await expect.poll(() => this.page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await dialog.getByRole("button", { name: "Já copiei" }).click();
    await expect(dialog).toHaveCount(0);
    return { url, secret };
  }

  row(url: string): Locator {
    return this.table.getByRole("row").filter({ hasText: url });
  }

  async rotate(url: string, overlap: string): Promise<TRegisteredWebhook> {
    await this.openMenu(url, "Trocar segredo");
    const dialog = this.page.getByRole("dialog");
    await dialog.getByLabel("Sobreposição").selectOption({ label: overlap });
    await dialog.getByRole("button", { name: "Trocar segredo" }).click();
    return this.readSecretOnce(dialog);
  }

  async deactivate(url: string) {
    await this.openMenu(url, "Desativar");
    await this.page.getByRole("alertdialog").getByRole("button", { name: "Desativar" }).click();
    await expect(this.row(url)).toContainText("Inativo");
  }

  private async openMenu(url: string, item: string) {
    await this.page.getByRole("button", { name: `Ações do webhook ${url}` }).click();
    await this.page.getByRole("menuitem", { name: item }).click();
  }
}
