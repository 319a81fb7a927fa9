import { expect, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";

test("[AUTH] a signed-out visitor is sent to the sign-in page", async ({ page }) => {
  await page.goto("/users");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fusers/);
  await expect(page.getByRole("heading", { name: "Entrar" })).toBeVisible();
});

// The sign-in tests use seeded users of their own: they fail passwords and sign out on purpose.
test("[AUTH] staff signs in, sees the dashboard, and signs out", async ({ page, users }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(users.signin.email, users.signin.password);
  await expect(page).toHaveURL(/:\d+\/$/);
  await expect(page.getByText(users.signin.name).first()).toBeVisible();

  await page.getByRole("button", { name: "Sair" }).first().click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/pix");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fpix/);
});

test("[AUTH] a wrong password is refused with a message that reveals nothing", async ({ page, users }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(users.signin.email, "not-the-password");
  await login.expectError("E-mail ou senha incorretos.");
  await login.signIn("nobody@e2e.test", "not-the-password");
  await login.expectError("E-mail ou senha incorretos.");
  await expect(page).toHaveURL(/\/login/);
});

test("[AUTH] repeated failures slow the account down, never lock its owner out", async ({ page, users }) => {
  test.setTimeout(120_000);
  const victim = users.locked;
  const login = new LoginPage(page);
  await login.goto();
  // The first 5 failures answer at once; then each waits twice as long as the one before, from 1 second.
  const waitMessage = /Muitas tentativas\. Aguarde (\d+) segundos? e tente novamente\./;
  for (let attempt = 1; attempt <= 5; attempt++) {
    await login.signIn(victim.email, `wrong-${attempt}`);
    await login.expectError("E-mail ou senha incorretos.");
  }
  let waitSeconds = 0;
  for (let attempt = 6; attempt <= 12 && waitSeconds === 0; attempt++) {
    await login.signIn(victim.email, `wrong-${attempt}`);
    const alert = page.getByRole("alert").filter({ hasText: /E-mail ou senha incorretos\.|Muitas tentativas/ });
    await expect(alert).toBeVisible();
    const match = waitMessage.exec((await alert.textContent()) ?? "");
    if (match) waitSeconds = Number(match[1]);
  }
  expect(waitSeconds).toBeGreaterThan(0);
  expect(waitSeconds).toBeLessThanOrEqual(300);
  await expect(page).toHaveURL(/\/login/);
  // After the wait the owner's right password is evaluated, and lets them in.
  await page.waitForTimeout((waitSeconds + 1) * 1000);
  await login.signIn(victim.email, victim.password);
  await expect(page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
});

test.describe("signed in as staff", () => {
  test.use({ role: "staff" });

  test("[AUTH] staff is refused the admin pages and the admin API", async ({ page }) => {
    await page.goto("/pix");
    await expect(page).toHaveURL(/\/pix$/);
    await expect(page.getByRole("button", { name: "Sair" }).first()).toBeVisible();
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
});
