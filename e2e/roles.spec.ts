import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, signedOut, test } from "./fixtures";
import { acceptInvitationAndSignIn, sendInvitation } from "./invite";
import { LoginPage } from "./pages/login-page";
import { NewPixChargePage } from "./pages/new-pix-charge-page";
import { WebhooksPage } from "./pages/webhooks-page";
import { callServerAction } from "./server-actions";
import { storageStateFile, type TTestUser } from "./targets";

// What each role may do, as its people meet it: the pages, the controls they are shown, and the server's answer when
// the UI is skipped (every action × permission is also checked in lib/auth/route-matrix.int.test.ts).

test.use(signedOut);

async function signIn(browser: Browser, user: Pick<TTestUser, "email" | "password">): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(user.email, user.password);
  await expect(page).not.toHaveURL(/\/login/, { timeout: 30_000 });
  return page;
}

async function expectForbidden(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(403);
  await expect(page.getByRole("heading", { name: "Acesso negado" })).toBeVisible();
}

test("[ROLES] Support sees payments and manages links, and is refused refunds, the terminal, exports and webhooks", async ({
  browser,
  baseURL,
  database,
  users,
}) => {
  test.setTimeout(120_000);
  const staff = await (await browser.newContext({ storageState: storageStateFile(database, "staff") })).newPage();
  const txid = await new NewPixChargePage(staff).create({ amount: "12,34" });
  await staff.context().close();

  const page = await signIn(browser, users.support);
  const nav = page.getByRole("navigation", { name: "Navegação principal" });
  await expect(nav.getByRole("link", { name: "Cobranças Pix" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Usuários" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Entregas de webhook" })).toHaveCount(0);

  // The charge is there, without the controls its role lacks.
  await page.goto(`/pix/${txid}`);
  await expect(page.getByText(txid).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancelar cobrança" })).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Valor a devolver" })).toHaveCount(0);
  await page.goto("/pix");
  await expect(page.getByRole("link", { name: "Nova cobrança" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Exportar/ })).toHaveCount(0);

  const linkForm = await page.goto("/links/new");
  expect(linkForm?.status()).toBe(200);
  await expectForbidden(page, "/payments/new");
  await expectForbidden(page, "/webhooks");
  await expectForbidden(page, "/webhooks/deliveries");
  await expectForbidden(page, "/users");
  const exported = await page.request.get("/api/exports/pix-charges");
  expect(exported.status()).toBe(403);

  // Straight to the server, past the UI: the refund action answers FORBIDDEN and nothing is refunded.
  const answer = await callServerAction(
    page.request,
    baseURL!,
    { file: "app/(dashboard)/pix/actions.ts", name: "requestPixRefundAction", pagePath: `/pix/${txid}` },
    { txid, amountCents: 100, description: "via the action", idempotencyKey: crypto.randomUUID() },
  );
  expect(answer).toContain('"code":"FORBIDDEN"');
  const charge = await callServerAction(
    page.request,
    baseURL!,
    { file: "app/(dashboard)/payments/new/actions.ts", name: "chargeCardAction", pagePath: "/payments/new" },
    {},
  );
  expect(charge).toContain('"code":"FORBIDDEN"');
  await page.context().close();
});

test("[ROLES] a Developer rotates a webhook's secret but cannot see the people", async ({ browser, users }) => {
  test.setTimeout(120_000);
  const page = await signIn(browser, users.developer);
  await expectForbidden(page, "/users");
  const webhooks = new WebhooksPage(page);
  await webhooks.goto();
  const registered = await webhooks.register();
  const rotated = await webhooks.rotate(registered.url, "1 hora");
  expect(rotated.url).not.toBe(registered.url);
  await webhooks.deactivate(rotated.url);
  await webhooks.deactivate(registered.url);
  await page.context().close();
});

test("[ROLES] a custom role built in the UI does exactly what its checklist says", async ({ browser, database }) => {
  test.setTimeout(150_000);
  const admin = await (await browser.newContext({ storageState: storageStateFile(database, "admin") })).newPage();
  const name = `Links e exportações ${randomBytes(3).toString("hex")}`;
  await admin.goto("/users/roles");
  await admin.getByRole("link", { name: "Nova função" }).click();
  await admin.getByLabel("Nome").fill(name);
  await admin.getByRole("checkbox", { name: "Gerenciar links de pagamento" }).check();
  await admin.getByRole("checkbox", { name: "Baixar exportações" }).check();
  await admin.getByRole("button", { name: "Criar função" }).click();
  await expect(admin.getByText("Função criada.")).toBeVisible();
  await expect(admin.getByRole("link", { name })).toBeVisible();

  // A person with that role, invited through the users page.
  const { email, dialog } = await sendInvitation(admin, "Pessoa Personalizada", { prefix: "custom", roleLabel: name });
  await expect(dialog).toContainText(`Enviamos um convite para ${email}`);
  await admin.context().close();
  const { page } = await acceptInvitationAndSignIn(browser, email);

  // Checked: payments (the default), links and exports. Nothing else.
  expect((await page.goto("/links/new"))?.status()).toBe(200);
  expect((await page.request.get("/api/exports/links")).status()).toBe(200);
  await expectForbidden(page, "/pix/new");
  await expectForbidden(page, "/payments/new");
  await expectForbidden(page, "/webhooks/deliveries");
  await expectForbidden(page, "/users");
  await expectForbidden(page, "/cards");
  await page.context().close();
});
