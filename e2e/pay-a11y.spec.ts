import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

import { PayPage } from "./pages/pay-page";
import { expect, test } from "./pay-gateway";

async function seriousViolations(page: Page) {
  // Next streams the page's metadata: under load the title can land after the content that was awaited.
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(({ id, impact, nodes }) => ({ id, impact, targets: nodes.map((node) => node.target.join(" ")) }));
}

for (const language of ["pt-BR", "en"] as const) {
  test(`[PAY] the hosted page has no serious accessibility violations (${language})`, async ({
    page,
    links,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: "NEXT_LOCALE", value: language, url: baseURL! }]);
    const link = await links.createLink();
    await page.goto(`/pay/${link.linkPaymentUuid}`);
    await expect(page.locator("html")).toHaveAttribute("lang", language);
    expect(await seriousViolations(page)).toEqual([]);

    // A wrong code (the error state), then the payment step with both methods.
    await page.locator("#pay-verification-code").fill("000000");
    await page.locator("main form button[type=submit]").click();
    // The form error, not Next's route announcer (also role=alert, empty, present after a language switch).
    await expect(page.getByRole("alert").and(page.locator("[data-slot=form-error]"))).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.locator("#pay-verification-code").fill(String(link.tokenVerificacao));
    await page.locator("main form button[type=submit]").click();
    await expect(page.locator("input[name=cardNumber]")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    // Client-side field errors shown.
    await page.locator("form:has(input[name=cardNumber]) button[type=submit]").click();
    await expect(page.locator("[data-slot=field-error]").first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    if (language === "pt-BR") {
      await new PayPage(page).chooseMethod("Pix");
      await page.getByRole("button", { name: "Gerar código Pix" }).click();
      await expect(page.getByRole("img", { name: "QR Code Pix do pagamento" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    }
  });
}
