import { randomBytes } from "node:crypto";
import * as OTPAuth from "otpauth";
import { expect, test } from "./fixtures";
import { waitForMail } from "./mailbox";
import { createUser, signOut } from "./new-user";

// A user of its own, made through the admin's form (e2e/new-user.ts): the seeded sessions other specs reuse stay
// untouched.
test.use({ role: "admin" });

// What an authenticator app shows `offsetSeconds` from now.
function codeOf(secret: string, offsetSeconds = 0): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offsetSeconds * 1000,
  });
}

test("[AUTH] a user turns on two-factor, signs in with a code, and a recovery code works once", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const user = await createUser(page, browser, "Dois Fatores");
  const { email, page: userPage, login } = user;

  await userPage.goto("/account/security");
  await expect(userPage.getByRole("heading", { name: "Verificação em duas etapas" })).toBeVisible();
  const secret = (await userPage.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const qr = userPage.getByRole("img", { name: "QR code para adicionar esta conta a um aplicativo autenticador" });
  await expect(qr).toHaveAttribute("src", /^data:image\/png;base64,/);

  await userPage.getByLabel("Código do aplicativo").fill(codeOf(secret, -300));
  await userPage.getByRole("button", { name: "Ativar" }).click();
  await expect(userPage.getByText("Código inválido ou já usado.")).toBeVisible();

  await userPage.getByLabel("Código do aplicativo").fill(codeOf(secret));
  await userPage.getByRole("button", { name: "Ativar" }).click();
  const codes = userPage.getByRole("list", { name: "Códigos de recuperação" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recoveryCodes = await codes.allTextContents();
  for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  // The invitation, then the notice that two-factor is on.
  expect((await waitForMail(email, 2))[1]!.subject).toBe("Verificação em duas etapas ativada");
  await userPage.getByRole("button", { name: "Já guardei os códigos" }).click();
  await expect(userPage).toHaveURL(/:\d+\/$/);
  await signOut(userPage);

  // The password, then the code step: a wrong code is refused, the next step's code (the one used to
  // enrol is spent) lets the user in.
  await login.signIn(email, user.password);
  const codeField = userPage.getByLabel("Código de autenticação");
  await expect(codeField).toBeVisible({ timeout: 30_000 });
  await expect(userPage.getByText("Digite o código de 6 dígitos do seu aplicativo autenticador.")).toBeVisible();
  await codeField.fill(codeOf(secret, -600));
  await userPage.getByRole("button", { name: "Verificar" }).click();
  await login.expectError("Código inválido ou já usado.");
  await expect(userPage).toHaveURL(/\/login/);
  await userPage.getByLabel("Código de autenticação").fill(codeOf(secret, 30));
  await userPage.getByRole("button", { name: "Verificar" }).click();
  await expect(userPage).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
  await signOut(userPage);

  // A recovery code instead of the app: accepted once, refused the second time.
  for (const isFirstUse of [true, false]) {
    await login.signIn(email, user.password);
    await userPage.getByRole("button", { name: "Usar um código de recuperação" }).click({ timeout: 30_000 });
    await userPage.getByLabel("Código de recuperação").fill(recoveryCodes[0]!);
    await userPage.getByRole("button", { name: "Verificar" }).click();
    if (isFirstUse) {
      await expect(userPage).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
      await signOut(userPage);
    } else {
      await login.expectError("Código inválido ou já usado.");
      await expect(userPage).toHaveURL(/\/login/);
    }
  }
  await user.context.close();
});

test("[USERS] an admin resets the two-factor of a user who lost it, who then signs in with the password alone", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const name = `Perdeu Celular ${randomBytes(2).toString("hex")}`;
  const user = await createUser(page, browser, name);
  const { email } = user;
  await user.page.goto("/account/security");
  const secret = (await user.page.getByTestId("totp-secret").textContent())!.trim();
  await user.page.getByLabel("Código do aplicativo").fill(codeOf(secret));
  await user.page.getByRole("button", { name: "Ativar" }).click();
  await expect(user.page.getByRole("list", { name: "Códigos de recuperação" })).toBeVisible();

  await page.goto("/users");
  await page.getByRole("button", { name: `Ações para ${name}` }).click();
  await page.getByRole("menuitem", { name: "Redefinir verificação em duas etapas" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(email);
  await dialog.getByRole("button", { name: "Redefinir verificação" }).click();
  await expect(page.getByText(`A verificação em duas etapas de ${name} foi redefinida.`)).toBeVisible();
  // Done: the menu no longer offers it.
  await page.getByRole("button", { name: `Ações para ${name}` }).click();
  await expect(page.getByRole("menuitem", { name: "Redefinir senha" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Redefinir verificação em duas etapas" })).toHaveCount(0);
  await page.keyboard.press("Escape");

  // The user's session ended; the password alone signs in again.
  await user.page.goto("/pix");
  await expect(user.page).toHaveURL(/\/login/);
  await user.login.signIn(email, user.password);
  await expect(user.page).toHaveURL(/\/pix$/, { timeout: 30_000 });
  await user.context.close();

  await page.goto("/audit");
  await expect(
    page.getByRole("row").filter({ hasText: "Verificação em duas etapas redefinida por um administrador" }).first(),
  ).toBeVisible();
});
