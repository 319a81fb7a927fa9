import { randomBytes } from "node:crypto";
import { signInAsApprover } from "./approver";
import { expect, signedOut, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";

test.use({ role: "admin" });

test("[USERS] an admin creates a staff user, who signs in, sets a password and is refused the admin pages", async ({
  page,
  browser,
}) => {
  await page.goto("/pix");

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

  // A fresh user: made through the admin's form, signing in with its one-time password.
  const staffContext = await browser.newContext(signedOut);
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
  await expect(staffPage).toHaveURL(/:\d+\/$/);

  const response = await staffPage.goto("/users");
  expect(response?.status()).toBe(403);
  await expect(staffPage.getByRole("heading", { name: "Acesso negado" })).toBeVisible();
  await staffContext.close();

  await page.goto("/audit");
  await expect(page.getByRole("cell", { name: email }).first()).toBeVisible();
});

test("[USERS] a new admin waits for a second, independent admin, who approves it with an authenticator code", async ({
  page,
  browser,
  users,
}) => {
  test.setTimeout(120_000);
  await page.goto("/users");
  const email = `new-admin-${randomBytes(4).toString("hex")}@e2e.test`;
  await page.getByRole("button", { name: "Novo usuário" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nome").fill("Novo Admin");
  await dialog.getByLabel("E-mail").fill(email);
  await dialog.getByLabel("Perfil").selectOption("administrator");
  await dialog.getByRole("button", { name: "Criar usuário" }).click();
  await expect(page.getByText(/^Enviado para aprovação: outro administrador/)).toBeVisible();

  // Not created yet: the request waits, and its requester cannot approve it.
  const change = page.getByTestId("pending-admin-change").filter({ hasText: email });
  await expect(change).toContainText("Criar o administrador Novo Admin");
  await expect(change).toContainText("Você fez este pedido: outro administrador precisa aprová-lo.");
  await expect(change.getByRole("button", { name: "Aprovar" })).toHaveCount(0);
  await expect(page.getByRole("cell", { name: email })).toHaveCount(0);

  // The approver: an admin created days ago, with two-factor on, and a code from now.
  const approver = await signInAsApprover(browser, users.approver);
  await approver.page.goto("/users");
  const pending = approver.page.getByTestId("pending-admin-change").filter({ hasText: email });
  await pending.getByRole("button", { name: "Aprovar" }).click();
  const confirm = approver.page.getByRole("alertdialog");
  await confirm.getByLabel("Código do autenticador").fill(await approver.nextCode());
  await confirm.getByRole("button", { name: "Aprovar" }).click();
  // The one-time password goes to the approver, who hands it over.
  const shown = approver.page.getByRole("dialog");
  expect((await shown.getByLabel("Senha temporária").inputValue()).length).toBeGreaterThanOrEqual(12);
  await shown.getByRole("button", { name: "Fechar" }).first().click();
  await expect(approver.page.getByRole("cell", { name: email })).toBeVisible();
  await approver.close();

  await page.goto("/audit");
  await expect(page.getByRole("row").filter({ hasText: "Alteração administrativa aprovada" }).first()).toBeVisible();
});
