import { expect, type Page } from "@playwright/test";

export class LoginPage {
  constructor(private readonly page: Page) {}

  async goto(callbackUrl?: string) {
    await this.page.goto(callbackUrl ? `/login?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/login");
  }

  async signIn(email: string, password: string) {
    await this.page.getByLabel("E-mail").fill(email);
    await this.page.getByLabel("Senha").fill(password);
    // Waits for the server's answer, so the next read of the page never sees the previous attempt's message.
    const answered = this.page.waitForResponse((response) => response.url().includes("/api/auth/callback/credentials"));
    await this.page.getByRole("button", { name: "Entrar" }).click();
    await answered;
  }

  async expectError(text: string | RegExp) {
    await expect(this.page.getByRole("alert").filter({ hasText: text })).toBeVisible();
  }
}
