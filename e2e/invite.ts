import { randomBytes, randomInt } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, signedOut } from "./fixtures";
import { linkIn, waitForMail } from "./mailbox";
import { LoginPage } from "./pages/login-page";

// A brand-new user the way a team gets one: an admin's invitation, the mailed link, a chosen password.

export async function sendInvitation(
  page: Page,
  name: string,
  options: { prefix: string; roleId?: string; roleLabel?: string; domain?: string },
) {
  const email = `${options.prefix}-${randomBytes(4).toString("hex")}@${options.domain ?? "e2e.test"}`;
  await page.goto("/users");
  await page.getByRole("button", { name: "Novo usuário" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill(name);
  await dialog.getByLabel("E-mail").fill(email);
  if (options.roleId) await dialog.getByLabel("Função").selectOption(options.roleId);
  if (options.roleLabel) await dialog.getByLabel("Função").selectOption({ label: options.roleLabel });
  await dialog.getByRole("button", { name: "Enviar convite" }).click();
  return { email, dialog };
}

// A browser of its own (its own device and client address), signed out.
export async function newSignedOutPage(browser: Browser) {
  const context = await browser.newContext({
    ...signedOut,
    extraHTTPHeaders: { "x-forwarded-for": `198.19.${randomInt(256)}.${randomInt(1, 255)}` },
  });
  return { context, page: await context.newPage() };
}

export async function choosePassword(page: Page, submitLabel: string): Promise<string> {
  const password = `own-${randomBytes(9).toString("base64url")}`;
  await page.getByLabel(/^Nova senha/).fill(password);
  await page.getByLabel(/^Confirme a senha/).fill(password);
  await page.getByRole("button", { name: submitLabel }).click();
  return password;
}

// Follows the invitation mailed to `email`, chooses a password and signs in with it.
export async function acceptInvitationAndSignIn(browser: Browser, email: string) {
  const [invitation] = await waitForMail(email);
  const invitePath = linkIn(invitation!, "invite");
  const { context, page } = await newSignedOutPage(browser);
  await page.goto(invitePath);
  const password = await choosePassword(page, "Criar minha conta");
  await expect(page.getByText("Sua conta está pronta")).toBeVisible();
  await page.getByRole("link", { name: "Ir para o login" }).click();
  const login = new LoginPage(page);
  await login.signIn(email, password);
  await expect(page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
  return { context, page, login, password, invitePath };
}
