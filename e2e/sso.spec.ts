import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { setRemoteAccount, type TAccountClaims } from "@/lib/testing/oidc-provider";
import { expect, test } from "./fixtures";
import { newSignedOutPage, sendInvitation } from "./invite";
import { linkIn, waitForMail } from "./mailbox";
import { oidcProvider, storageStateFile, type TDatabase } from "./targets";

// Single sign-on against a real OpenID Connect provider on loopback (e2e/servers/oidc.ts). The admin sets it up in the
// settings for the domain sso.e2e.test only, so the seeded users (e2e.test) and the other specs keep their passwords.
const provider = oidcProvider();
const ssoDomain = "sso.e2e.test";

test.describe.configure({ mode: "serial" });

async function personAtProvider(prefix: string, claims: Omit<TAccountClaims, "email">, domain = ssoDomain) {
  const login = `${prefix}-${randomBytes(4).toString("hex")}`;
  const email = `${login}@${domain}`;
  await setRemoteAccount(provider.issuer, login, { email, ...claims });
  return { login, email };
}

async function adminPage(browser: Browser, database: TDatabase) {
  const context = await browser.newContext({ storageState: storageStateFile(database, "admin") });
  return { context, page: await context.newPage() };
}

async function signInAtProviderPage(page: Page, login: string): Promise<string> {
  await page.getByPlaceholder("Enter any login").fill(login);
  await page.getByPlaceholder("and password").fill("anything");
  const callback = page.waitForRequest((request) => request.url().includes("/api/auth/sso/callback"));
  await page.getByRole("button", { name: "Sign-in" }).click();
  return (await callback).url();
}

// From the login page through the provider's own form; resolves with the callback URL the browser was sent to.
async function signInWithSso(page: Page, login: string): Promise<string> {
  await page.goto("/login");
  await page.getByRole("link", { name: "Entrar com SSO" }).click();
  return signInAtProviderPage(page, login);
}

test.describe("single sign-on", { tag: "@embedded" }, () => {
  test("[AUTH] an admin sets up single sign-on in the settings", async ({ browser, database }) => {
    const { context, page } = await adminPage(browser, database);
    await page.goto("/settings");
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Salvar login único" }) });
    await form.getByLabel("Oferecer login único").check();
    await form.getByLabel(/^URL do emissor/).fill(provider.issuer);
    await form.getByLabel(/^ID do cliente/).fill(provider.clientId);
    await form.getByLabel(/^Segredo do cliente/).fill(provider.clientSecret);
    await form.getByRole("button", { name: "Adicionar um grupo" }).click();
    await form.getByLabel("Grupo", { exact: true }).fill("finance");
    await form.getByLabel("Perfil", { exact: true }).selectOption({ label: "Analista" });
    await form.getByLabel(/^Domínios de e-mail que podem/).fill(ssoDomain);
    await form.getByLabel(/^Domínios que entram só/).fill(ssoDomain);
    await form.getByRole("button", { name: "Salvar login único" }).click();
    await expect(page.getByText("Login único salvo.")).toBeVisible();
    await page.reload();
    await expect(page.getByText("Há um segredo guardado.", { exact: false })).toBeVisible();
    await expect(page.getByLabel(/^Segredo do cliente/)).toHaveValue("");
    await context.close();
  });

  test("[AUTH] a person signs in at the identity provider, gets an account with the mapped role, and a replayed callback is refused", async ({
    browser,
    database,
  }) => {
    const person = await personAtProvider("ana", { email_verified: true, name: "Ana SSO", groups: ["finance"] });
    const { context, page } = await newSignedOutPage(browser);
    const callbackUrl = await signInWithSso(page, person.login);
    await expect(page.getByRole("heading", { name: "Visão geral" })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/");
    // Analyst: sees payments, not the people.
    const response = await page.goto("/users");
    expect(response?.status()).toBe(403);
    await context.close();

    const admin = await adminPage(browser, database);
    await admin.page.goto("/users");
    await expect(admin.page.getByRole("row").filter({ hasText: person.email })).toContainText("Analista");
    await admin.context.close();

    // The same answer of the provider, opened again: the attempt was spent.
    const replay = await newSignedOutPage(browser);
    await replay.page.goto(callbackUrl);
    await expect(replay.page).toHaveURL(/\/login\?error=sso(%3A|:)replayed$/);
    await expect(replay.page.getByRole("alert").filter({ hasText: "Este login já foi usado." })).toBeVisible();
    await replay.context.close();
  });

  test("[AUTH] a person of an unknown domain is refused, and no account is made", async ({ browser, database }) => {
    const person = await personAtProvider("zed", { email_verified: true, groups: ["finance"] }, "elsewhere.test");
    const { context, page } = await newSignedOutPage(browser);
    await signInWithSso(page, person.login);
    await expect(page).toHaveURL(/\/login\?error=sso/);
    await expect(
      page.getByRole("alert").filter({ hasText: "O domínio do seu e-mail não tem acesso a este painel." }),
    ).toBeVisible();
    await context.close();
    const admin = await adminPage(browser, database);
    await admin.page.goto("/users");
    await expect(admin.page.getByRole("heading", { name: "Usuários" })).toBeVisible();
    await expect(admin.page.getByRole("row").filter({ hasText: person.email })).toHaveCount(0);
    await admin.context.close();
  });

  test("[AUTH] a password of an SSO-only domain is refused on the server", async ({ browser }) => {
    const { context, page } = await newSignedOutPage(browser);
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(`someone@${ssoDomain}`);
    await page.getByLabel("Senha").fill("whatever-password");
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await expect(page.getByText("Sua organização entra pelo login único.")).toBeVisible();
    await context.close();
  });

  test("[AUTH] an invitee joins through SSO and gets the invited role, not the mapped one", async ({
    browser,
    database,
  }) => {
    const admin = await adminPage(browser, database);
    const { email, dialog } = await sendInvitation(admin.page, "Convite SSO", {
      prefix: "inv",
      domain: ssoDomain,
      roleLabel: "Somente leitura",
    });
    await expect(dialog).toContainText(`Enviamos um convite para ${email}`);
    const [mail] = await waitForMail(email);
    const login = email.split("@")[0]!;
    await setRemoteAccount(provider.issuer, login, { email, email_verified: true, groups: ["finance"] });

    const { context, page } = await newSignedOutPage(browser);
    await page.goto(linkIn(mail!, "invite"));
    await page.getByRole("link", { name: "Usar SSO" }).click();
    await signInAtProviderPage(page, login);
    await expect(page.getByRole("heading", { name: "Visão geral" })).toBeVisible();
    await context.close();

    await admin.page.goto("/users");
    await expect(admin.page.getByRole("row").filter({ hasText: email })).toContainText("Somente leitura");
    await admin.context.close();
  });
});
