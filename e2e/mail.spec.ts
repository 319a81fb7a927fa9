import { randomBytes } from "node:crypto";
import { expect, test } from "./fixtures";
import { acceptInvitationAndSignIn, choosePassword, newSignedOutPage, sendInvitation } from "./invite";
import { linkIn, mailTo, waitForMail } from "./mailbox";
import { LoginPage } from "./pages/login-page";

// Real mail over SMTP: the app under test sends to e2e/servers/mailbox.ts, and each test reads what its own
// addresses received and counts it (annotated as "mail delivered per flow").

test.use({ role: "admin" });

function noteDelivered(flow: string, count: number) {
  test.info().annotations.push({ type: "mail delivered per flow", description: `${flow}: ${count}` });
}

test("[AUTH] an invited user follows the mailed link, chooses a password and signs in; the link works once", {
  tag: "@embedded",
}, async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { email, dialog } = await sendInvitation(page, "Convidada Mail", { prefix: "invited" });
  await expect(dialog).toContainText(`Enviamos um convite para ${email}`);

  const [invitation] = await waitForMail(email);
  expect(invitation!.subject).toBe("Você foi convidado para o painel de pagamentos");
  expect(invitation!.html).toContain("Escolher minha senha");
  const invitee = await acceptInvitationAndSignIn(browser, email);
  await expect(invitee.page.getByRole("heading", { level: 1 })).toBeVisible();

  // Spent: the same link now says so and creates nothing.
  const again = await newSignedOutPage(browser);
  await again.page.goto(invitee.invitePath);
  await expect(again.page.getByRole("heading", { name: "Este convite não é válido" })).toBeVisible();
  await expect(again.page.getByLabel(/^Nova senha/)).toHaveCount(0);
  await again.context.close();
  await invitee.context.close();

  // The first device a user ever signs in from is no news: the invitation is the only message.
  expect(await mailTo(email)).toHaveLength(1);
  noteDelivered("invitation", 1);
});

test("[AUTH] forgot password: the mailed link sets a new password once, the old one stops working, an unknown address gets the same answer and no mail", {
  tag: "@embedded",
}, async ({ page, browser }) => {
  test.setTimeout(150_000);
  const { email } = await sendInvitation(page, "Esquecida Mail", { prefix: "forgot" });
  const invitee = await acceptInvitationAndSignIn(browser, email);
  await invitee.context.close();

  const visitor = await newSignedOutPage(browser);
  const unknown = `nobody-${randomBytes(4).toString("hex")}@e2e.test`;
  const answers: string[] = [];
  for (const address of [unknown, email]) {
    await visitor.page.goto("/login");
    await visitor.page.getByRole("link", { name: "Esqueceu a senha?" }).click();
    // The sign-in form has an "E-mail" field too: fill the one of the page the link opened.
    await expect(visitor.page).toHaveURL(/\/forgot-password/, { timeout: 30_000 });
    await visitor.page.getByLabel("E-mail").fill(address);
    await visitor.page.getByRole("button", { name: "Enviar link" }).click();
    const answer = visitor.page.getByText("Se existir uma conta com este e-mail");
    await expect(answer).toBeVisible();
    answers.push((await answer.textContent()) ?? "");
  }
  expect(answers[0]).toBe(answers[1]);

  const [, reset] = await waitForMail(email, 2);
  expect(reset!.subject).toBe("Escolha uma nova senha");
  // Asked before the known address's mail arrived, and still nothing.
  expect(await mailTo(unknown)).toHaveLength(0);

  const resetPath = linkIn(reset!, "reset-password");
  await visitor.page.goto(resetPath);
  const newPassword = await choosePassword(visitor.page, "Salvar a nova senha");
  await expect(visitor.page.getByText("Sua senha foi trocada")).toBeVisible();

  const login = new LoginPage(visitor.page);
  await login.goto();
  await login.signIn(email, invitee.password);
  await login.expectError("E-mail ou senha incorretos.");
  await login.signIn(email, newPassword);
  await expect(visitor.page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });

  // This browser was never used by this account: the user is told of the new sign-in.
  const [, , notice] = await waitForMail(email, 3);
  expect(notice!.subject).toBe("Novo acesso à sua conta");

  const reuse = await newSignedOutPage(browser);
  await reuse.page.goto(resetPath);
  await expect(reuse.page.getByRole("heading", { name: "Este link não é válido" })).toBeVisible();
  await reuse.context.close();
  await visitor.context.close();

  expect(await mailTo(email)).toHaveLength(3);
  expect(await mailTo(unknown)).toHaveLength(0);
  noteDelivered("password reset (link + new-device notice)", 2);
  noteDelivered("unknown address", 0);
});
