import { expect, type Locator, type Page } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";

export class PixChargePage {
  readonly status: Locator;
  readonly qrCode: Locator;
  readonly copyAndPasteCode: Locator;
  readonly refunds: Locator;

  constructor(private readonly page: Page) {
    this.status = page.getByTestId("pix-charge-status");
    this.qrCode = page.getByRole("img", { name: "QR code Pix desta cobrança" });
    this.copyAndPasteCode = page.getByLabel("Código Pix copia e cola");
    this.refunds = page.getByRole("region", { name: "Devoluções" });
  }

  async goto(txid: string) {
    return this.page.goto(`/pix/${txid}`);
  }

  /** `status` is the spec's exact string (data-status); `label` the words on the badge. */
  async expectStatus(label: string, status: string, options: { timeout?: number } = {}) {
    await expect(this.status.locator("[data-status]")).toHaveAttribute("data-status", status, options);
    await expect(this.status).toHaveText(label);
  }

  /** The text inside the QR image, decoded from its pixels. */
  async readQrCode(): Promise<string | null> {
    const src = await this.qrCode.getAttribute("src");
    const png = PNG.sync.read(Buffer.from(src!.replace(/^data:image\/png;base64,/, ""), "base64"));
    return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
  }

  async cancel() {
    // The page's own button, never the confirm button of a dialog still closing (same name, portaled to the body).
    await this.page.getByRole("main").getByRole("button", { name: "Cancelar cobrança" }).click();
    const dialog = this.page.getByRole("alertdialog");
    await dialog.getByRole("button", { name: "Cancelar cobrança" }).click();
    return dialog;
  }

  refundAmountField(): Locator {
    return this.refunds.getByRole("textbox", { name: "Valor a devolver", exact: true });
  }

  /** Types the amount (never pre-filled), asks, and confirms in the dialog, which names the amount. */
  async refund(amount: string, description?: string) {
    await this.refundAmountField().fill(amount);
    if (description !== undefined)
      await this.refunds.getByRole("textbox", { name: "Mensagem ao pagador" }).fill(description);
    await this.refunds.getByRole("button", { name: "Devolver", exact: true }).click();
    const dialog = this.page.getByRole("alertdialog");
    await expect(dialog).toContainText(`R$ ${amount}`);
    await dialog.getByRole("button", { name: /^(Devolver R\$|Enviar para aprovação)/ }).click();
    await expect(dialog).toHaveCount(0);
  }

  /** One value of the refunds panel summary ("Pago", "Devolvido", "Ainda pode devolver"). */
  summaryValue(term: string): Locator {
    return this.refunds.locator("dt", { hasText: term }).locator("xpath=following-sibling::dd[1]");
  }
}
