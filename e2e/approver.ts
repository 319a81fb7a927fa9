import type { Browser, Page } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { expect, signedOut, type TestUser } from "./fixtures";
import { LoginPage } from "./pages/login-page";

// The seeded independent approver (e2e/servers/app.ts: an admin created days ago, two-factor on). Each code is
// accepted once and never an older one, so codes come from steps after the last one used, as the server allows
// one step of drift either side; when none is left the next 30-second step is awaited, as a person would.

export type TApproverSession = { page: Page; close: () => Promise<void>; nextCode: () => Promise<string> };

const stepSeconds = 30;
const currentStep = () => Math.floor(Date.now() / 1000 / stepSeconds);

export async function signInAsApprover(browser: Browser, approver: TestUser): Promise<TApproverSession> {
  const secret = approver.totpSecret;
  if (!secret) throw new Error("the seeded approver has no two-factor secret");
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
  let lastStep = currentStep() - 1;
  const nextCode = async () => {
    let step = Math.max(currentStep() - 1, lastStep + 1);
    while (step > currentStep() + 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      step = Math.max(currentStep() - 1, lastStep + 1);
    }
    lastStep = step;
    return totp.generate({ timestamp: step * stepSeconds * 1000 });
  };

  const context = await browser.newContext(signedOut);
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(approver.email, approver.password);
  const codeField = page.getByLabel("Código de autenticação");
  await expect(codeField).toBeVisible({ timeout: 30_000 });
  await codeField.fill(await nextCode());
  await page.getByRole("button", { name: "Verificar" }).click();
  await expect(page).toHaveURL(/:\d+\/$/, { timeout: 30_000 });
  return { page, close: () => context.close(), nextCode };
}
