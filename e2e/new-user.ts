import type { Browser, Page } from "@playwright/test";
import { expect } from "./fixtures";
import { acceptInvitationAndSignIn, sendInvitation } from "./invite";

// A brand-new user for specs that change a user's own sign-in (two-factor, passkeys): invited through the admin's form
// on `page` (an admin's), then signed in for the first time in a browser of its own.
export async function createUser(page: Page, browser: Browser, name: string, prefix = "two-factor") {
  const { email, dialog } = await sendInvitation(page, name, { prefix });
  await dialog.getByRole("button", { name: "Fechar" }).first().click();
  return { email, ...(await acceptInvitationAndSignIn(browser, email)) };
}

// The sign-out and the sign-in page's load can outlast the default 10 s on a busy machine.
export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sair" }).first().click();
  await expect(page).toHaveURL(/\/login/, { timeout: 30_000 });
}
