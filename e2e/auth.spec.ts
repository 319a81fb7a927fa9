import { createUser, expect, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";

test("[AUTH] a signed-out visitor is sent to the sign-in page", async ({ page }) => {
  await page.goto("/users");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fusers/);
  await expect(page.getByRole("heading", { name: "Entrar" })).toBeVisible();
});

test("[AUTH] staff signs in, sees the dashboard, and signs out", async ({ page, staff }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(staff.email, staff.password);
  await expect(page).toHaveURL(/\/pix$/);
  await expect(page.getByText(staff.name).first()).toBeVisible();

  await page.getByRole("button", { name: "Sair" }).first().click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/pix");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fpix/);
});

test("[AUTH] a wrong password is refused with a message that reveals nothing", async ({ page, staff }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(staff.email, "not-the-password");
  await login.expectError("E-mail ou senha incorretos.");
  await login.signIn("nobody@e2e.test", "not-the-password");
  await login.expectError("E-mail ou senha incorretos.");
  await expect(page).toHaveURL(/\/login/);
});

test("[AUTH] repeated failures lock the account for a while, even with the right password", async ({ page }) => {
  const victim = await createUser("STAFF", "locked");
  const login = new LoginPage(page);
  await login.goto();
  for (let attempt = 1; attempt <= 5; attempt++) {
    await login.signIn(victim.email, `wrong-${attempt}`);
    await login.expectError("E-mail ou senha incorretos.");
  }
  await login.signIn(victim.email, victim.password);
  await login.expectError(/Muitas tentativas\. Tente novamente em \d+ minutos?\./);
  await expect(page).toHaveURL(/\/login/);
});

test("[AUTH] staff is refused the admin pages and the admin API", async ({ page, staff }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(staff.email, staff.password);
  await expect(page).toHaveURL(/\/pix$/);
  await expect(page.getByRole("link", { name: "Usuários" })).toHaveCount(0);

  for (const path of ["/users", "/audit", "/settings"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { name: "Acesso negado" })).toBeVisible();
  }
  const api = await page.request.get("/api/users");
  expect(api.status()).toBe(403);
  expect(await api.json()).toMatchObject({ error: { code: "FORBIDDEN" } });
});
