import type { CDPSession, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createUser, signOut } from "./new-user";

// Passkeys through Chromium's virtual authenticator (CDP WebAuthn domain): a platform authenticator with resident
// keys that verifies the user at once. The app is on http://localhost (e2e/targets.ts): WebAuthn refuses an IP.

test.use({ role: "admin" });

type TVirtualCredential = {
  credentialId: string;
  isResidentCredential: boolean;
  rpId: string;
  privateKey: string;
  userHandle: string;
  signCount: number;
};

// Adding and removing a passkey check the password: its hash is deliberately slow, slower still on a busy machine.
const hashTimeout = 30_000;

const authenticatorOptions = {
  protocol: "ctap2",
  transport: "internal",
  hasResidentKey: true,
  hasUserVerification: true,
  isUserVerified: true,
  automaticPresenceSimulation: true,
} as const;

async function addAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", { options: authenticatorOptions });
  return { cdp, authenticatorId };
}

async function credentialsOf(cdp: CDPSession, authenticatorId: string): Promise<TVirtualCredential[]> {
  return (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials as TVirtualCredential[];
}

async function addPasskey(page: Page, name: string, password: string) {
  await page.goto("/account/security");
  const section = page.getByRole("region", { name: "Chaves de acesso" });
  await section.getByLabel("Nome da chave").fill(name);
  await section.getByLabel("Senha atual").fill(password);
  await section.getByRole("button", { name: "Adicionar chave de acesso" }).click();
  await expect(section.getByRole("listitem", { name })).toBeVisible({ timeout: hashTimeout });
}

async function signInWithPasskey(page: Page) {
  await page.goto("/login");
  const answered = page.waitForResponse((response) => response.url().includes("/api/auth/callback/passkey"));
  await page.getByRole("button", { name: "Usar uma chave de acesso" }).click();
  await answered;
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

test("[AUTH] a user adds a passkey, signs in with it alone, uses it after the password, renames and removes it", {
  tag: "@embedded",
}, async ({ page, browser }) => {
  test.setTimeout(240_000);
  const { email, page: userPage, login, password } = await createUser(page, browser, "Chave de Acesso", "passkey");
  const { cdp, authenticatorId } = await addAuthenticator(userPage);

  await userPage.goto("/account/security");
  const section = userPage.getByRole("region", { name: "Chaves de acesso" });
  await expect(section.getByText("Nenhuma chave de acesso ainda.")).toBeVisible({ timeout: hashTimeout });
  await section.getByLabel("Nome da chave").fill("Notebook");
  await section.getByLabel("Senha atual").fill("not the password");
  await section.getByRole("button", { name: "Adicionar chave de acesso" }).click();
  await expect(section.getByText("Senha incorreta.")).toBeVisible({ timeout: hashTimeout });
  await addPasskey(userPage, "Notebook", password);
  expect(await credentialsOf(cdp, authenticatorId)).toHaveLength(1);

  await userPage.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(userPage);
  await userPage.setViewportSize({ width: 1280, height: 720 });

  // Keyboard only: the rename form opens, takes the new name and saves on Enter.
  const item = section.getByRole("listitem", { name: "Notebook" });
  await item.getByRole("button", { name: "Renomear" }).focus();
  await userPage.keyboard.press("Enter");
  const nameField = section.getByLabel("Novo nome para Notebook");
  await expect(nameField).toBeFocused();
  await nameField.fill("Notebook do trabalho");
  await userPage.keyboard.press("Enter");
  await expect(section.getByRole("listitem", { name: "Notebook do trabalho" })).toBeVisible();

  await userPage.goto("/");
  await signOut(userPage);
  await signInWithPasskey(userPage);
  await expect(userPage).toHaveURL(/:\d+\/$/, { timeout: hashTimeout });
  await expect(userPage.getByRole("button", { name: "Sair" }).first()).toBeVisible();

  // With a passkey on the account, the password alone is not enough: the passkey is the second factor.
  await signOut(userPage);
  await login.goto();
  await login.signIn(email, password);
  await expect(userPage.getByText("Confirme que é você com uma das suas chaves de acesso.")).toBeVisible();
  await expect(userPage.getByLabel("Código de autenticação")).toHaveCount(0);
  const answered = userPage.waitForResponse((response) => response.url().includes("/api/auth/callback/credentials"));
  await userPage.getByRole("button", { name: "Usar uma chave de acesso" }).click();
  await answered;
  await expect(userPage).toHaveURL(/:\d+\/$/, { timeout: hashTimeout });

  await userPage.goto("/account/security");
  await expect(section.getByText(/Último uso em/)).toBeVisible();
  await section.getByRole("button", { name: "Remover" }).click();
  const dialog = userPage.getByRole("alertdialog");
  await expect(dialog.getByText("Remover a chave de acesso “Notebook do trabalho”?")).toBeVisible();
  await dialog.getByLabel("Senha atual").fill(password);
  await dialog.getByRole("button", { name: "Remover" }).click();
  await expect(section.getByText("Nenhuma chave de acesso ainda.")).toBeVisible({ timeout: hashTimeout });

  // Gone from the account: the authenticator still holds it, the server no longer knows it.
  await userPage.goto("/");
  await signOut(userPage);
  await signInWithPasskey(userPage);
  await expect(userPage.getByRole("alert").filter({ hasText: "Essa chave de acesso não foi aceita" })).toBeVisible();
});

test("[AUTH] a copy of a passkey whose signature counter went backwards is refused", { tag: "@embedded" }, async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const { email, page: userPage, password } = await createUser(page, browser, "Chave Clonada", "passkey-clone");
  const first = await addAuthenticator(userPage);
  await addPasskey(userPage, "Chave original", password);

  // Two sign-ins: the server's stored counter rises past what the copy will present.
  for (let index = 0; index < 2; index += 1) {
    await userPage.goto("/");
    await signOut(userPage);
    await signInWithPasskey(userPage);
    await expect(userPage).toHaveURL(/:\d+\/$/, { timeout: hashTimeout });
  }
  const [original] = await credentialsOf(first.cdp, first.authenticatorId);
  expect(original!.signCount).toBeGreaterThan(1);

  await userPage.goto("/");
  await signOut(userPage);
  await first.cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: first.authenticatorId });
  const clone = await addAuthenticator(userPage);
  await clone.cdp.send("WebAuthn.addCredential", {
    authenticatorId: clone.authenticatorId,
    credential: { ...original!, signCount: 0 },
  });

  await signInWithPasskey(userPage);
  await expect(
    userPage.getByRole("alert").filter({ hasText: "contador de assinaturas dela voltou atrás" }),
  ).toBeVisible();
  await expect(userPage).toHaveURL(/\/login/);
  await userPage.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(userPage);

  // The admin sees the refusal in the audit log, with both counters.
  await page.goto("/audit");
  const refusal = page
    .getByRole("row")
    .filter({ hasText: email })
    .filter({ hasText: "Chave de acesso recusada: o contador voltou atrás (possível cópia)" });
  await expect(refusal).toContainText('"receivedCounter":1');
});
