import { expect, test } from "./fixtures";

// The theme switch in the header: system (default), light or dark, kept in a cookie for the first paint.

test.use({ role: "staff" });

const backgroundOf = (page: import("@playwright/test").Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test("[AUTH] staff switches to the dark theme, and it stays dark from the first paint after a reload", async ({
  page,
}) => {
  await page.goto("/pix");
  const html = page.locator("html");
  await expect(html).toHaveClass("theme-system");
  const light = await backgroundOf(page);

  // "System" follows the device.
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => backgroundOf(page)).not.toBe(light);
  const dark = await backgroundOf(page);
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(() => backgroundOf(page)).toBe(light);

  await page.getByRole("button", { name: "Tema" }).click();
  await page.getByRole("menuitemradio", { name: "Escuro" }).click();
  await expect(html).toHaveClass("dark");
  await expect.poll(() => backgroundOf(page)).toBe(dark);

  // The server paints the saved choice: the HTML already carries the class, no script swaps it later.
  await expect.poll(async () => (await page.request.get("/pix")).text()).toMatch(/<html[^>]*class="dark"/);
  await page.reload();
  await expect(html).toHaveClass("dark");

  await page.getByRole("button", { name: "Tema" }).click();
  await page.getByRole("menuitemradio", { name: "Claro" }).click();
  await expect(html).not.toHaveClass(/dark|theme-system/);
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await backgroundOf(page)).toBe(light);

  // Back to the default for the other tests' sessions.
  await page.getByRole("button", { name: "Tema" }).click();
  await page.getByRole("menuitemradio", { name: "Como o dispositivo" }).click();
  await expect(html).toHaveClass("theme-system");
});
