import { randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";

test("[USERS] an admin creates a staff user, who signs in, sets a password and is refused the admin pages", async ({
  page,
  admin,
  browser,
}) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(admin.email, admin.password);
  await expect(page).toHaveURL(/\/pix$/);

  await page.getByRole("link", { name: "Usuários" }).click();
  await expect(page.getByRole("heading", { name: "Usuários" })).toBeVisible();
  const email = `new-staff-${randomBytes(4).toString("hex")}@e2e.test`;
  await page.getByRole("button", { name: "Novo usuário" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill("Nova Equipe");
  await dialog.getByLabel("E-mail").fill(email);
  await dialog.getByRole("button", { name: "Criar usuário" }).click();
  const oneTimePassword = await dialog.getByLabel("Senha temporária").inputValue();
  expect(oneTimePassword.length).toBeGreaterThanOrEqual(12);
  await dialog.getByRole("button", { name: "Fechar" }).first().click();
  await expect(page.getByRole("cell", { name: email })).toBeVisible();

  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  const staffLogin = new LoginPage(staffPage);
  await staffLogin.goto();
  await staffLogin.signIn(email, oneTimePassword);
  await expect(staffPage).toHaveURL(/\/account\/password/);
  const newPassword = `own-${randomBytes(9).toString("base64url")}`;
  await staffPage.getByLabel("Senha atual").fill(oneTimePassword);
  await staffPage.getByLabel("Nova senha").fill(newPassword);
  await staffPage.getByLabel("Confirme a senha").fill(newPassword);
  await staffPage.getByRole("button", { name: "Trocar senha" }).click();
  await expect(staffPage).toHaveURL(/\/pix$/);

  const response = await staffPage.goto("/users");
  expect(response?.status()).toBe(403);
  await expect(staffPage.getByRole("heading", { name: "Acesso negado" })).toBeVisible();
  await staffContext.close();

  await page.goto("/audit");
  await expect(page.getByRole("cell", { name: email }).first()).toBeVisible();
});
