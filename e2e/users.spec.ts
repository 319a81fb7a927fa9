import { signInAsApprover } from "./approver";
import { expect, test } from "./fixtures";
import { acceptInvitationAndSignIn, newSignedOutPage, sendInvitation } from "./invite";
import { linkIn, mailTo, waitForMail } from "./mailbox";

test.use({ role: "admin" });

test("[USERS] an admin invites a staff user, who chooses a password from the mail and is refused the admin pages", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.goto("/pix");

  await page.getByRole("link", { name: "Usuários" }).click();
  await expect(page.getByRole("heading", { name: "Usuários" })).toBeVisible();
  const { email, dialog } = await sendInvitation(page, "Nova Equipe", { prefix: "new-staff" });
  await expect(dialog).toContainText(`Enviamos um convite para ${email}`);
  await dialog.getByRole("button", { name: "Fechar" }).first().click();
  // Pending until accepted: not a user yet.
  await expect(page.getByTestId("pending-invitation").filter({ hasText: email })).toBeVisible();
  await expect(page.getByRole("cell", { name: email })).toHaveCount(0);

  const staff = await acceptInvitationAndSignIn(browser, email);
  const response = await staff.page.goto("/users");
  expect(response?.status()).toBe(403);
  await expect(staff.page.getByRole("heading", { name: "Acesso negado" })).toBeVisible();
  await staff.context.close();

  await page.goto("/users");
  await expect(page.getByRole("cell", { name: email })).toBeVisible();
  await expect(page.getByTestId("pending-invitation").filter({ hasText: email })).toHaveCount(0);
  await page.goto("/audit");
  await expect(page.getByRole("cell", { name: email }).first()).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "Convite aceito" }).first()).toBeVisible();
});

test("[USERS] an admin resends an invitation (the old link dies) and revokes it", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { email, dialog } = await sendInvitation(page, "Convite Reenviado", { prefix: "resent" });
  await dialog.getByRole("button", { name: "Fechar" }).first().click();
  const [first] = await waitForMail(email);
  const invitation = page.getByTestId("pending-invitation").filter({ hasText: email });
  await invitation.getByRole("button", { name: "Reenviar" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Reenviar" }).click();
  await expect(page.getByText(`Convite reenviado para ${email}.`)).toBeVisible();
  const [, second] = await waitForMail(email, 2);
  expect(linkIn(second!, "invite")).not.toBe(linkIn(first!, "invite"));

  const invitee = await newSignedOutPage(browser);
  await invitee.page.goto(linkIn(first!, "invite"));
  await expect(invitee.page.getByRole("heading", { name: "Este convite não é válido" })).toBeVisible();

  await invitation.getByRole("button", { name: "Revogar" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revogar" }).click();
  await expect(page.getByText(`Convite para ${email} revogado.`)).toBeVisible();
  await invitee.page.goto(linkIn(second!, "invite"));
  await expect(invitee.page.getByRole("heading", { name: "Este convite não é válido" })).toBeVisible();
  await invitee.context.close();
  expect(await mailTo(email)).toHaveLength(2);
});

test("[USERS] a new admin waits for a second, independent admin, who approves it with an authenticator code", async ({
  page,
  browser,
  users,
}) => {
  test.setTimeout(120_000);
  const { email } = await sendInvitation(page, "Novo Admin", { prefix: "new-admin", roleId: "administrator" });
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
  // Approved means invited: the new admin gets the link by mail, and exists once they accept it.
  await expect(approver.page.getByTestId("pending-invitation").filter({ hasText: email })).toBeVisible({
    timeout: 30_000,
  });
  expect((await waitForMail(email)).map((mail) => mail.subject)).toEqual([
    "Você foi convidado para o painel de pagamentos",
  ]);
  await approver.close();

  await page.goto("/audit");
  await expect(page.getByRole("row").filter({ hasText: "Alteração administrativa aprovada" }).first()).toBeVisible();
});
