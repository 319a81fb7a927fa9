import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, signedOut } from "./fixtures";
import { LoginPage } from "./pages/login-page";

// A brand-new user for specs that change a user's own sign-in (two-factor, passkeys): made through the admin's form
// on `page` (an admin's), then signed in for the first time in a context of its own.
export async function createUser(
  page: Page,
  name: string,
  prefix = "two-factor",
): Promise<{ email: string; oneTimePassword: string }> {
  await page.goto("/users");
  const email = `${prefix}-${randomBytes(4).toString("hex")}@e2e.test`;
  await page.getByRole("button", { name: "Novo usuário" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill(name);
  await dialog.getByLabel("E-mail").fill(email);
  await dialog.getByRole("button", { name: "Criar usuário" }).click();
  const oneTimePassword = await dialog.getByLabel("Senha temporária").inputValue();
  await dialog.getByRole("button", { name: "Fechar" }).first().click();
  return { email, oneTimePassword };
}

// Signs in with the one-time password and sets a password of its own.
export async function firstSignIn(browser: Browser, email: string, oneTimePassword: string) {
  const context = await browser.newContext(signedOut);
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(email, oneTimePassword);
  await expect(page).toHaveURL(/\/account\/password/, { timeout: 30_000 });
  const password = `own-${randomBytes(9).toString("base64url")}`;
  await page.getByLabel("Senha atual").fill(oneTimePassword);
  await page.getByLabel("Nova senha").fill(password);
  await page.getByLabel("Confirme a senha").fill(password);
  await page.getByRole("button", { name: "Trocar senha" }).click();
  await expect(page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
  return { context, page, login, password };
}

// The sign-out and the sign-in page's load can outlast the default 10 s on a busy machine.
export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sair" }).first().click();
  await expect(page).toHaveURL(/\/login/, { timeout: 30_000 });
}
