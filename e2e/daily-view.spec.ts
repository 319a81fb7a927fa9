import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures";
import { NewPixChargePage } from "./pages/new-pix-charge-page";
import { freshVisaNumber, TerminalPage } from "./pages/terminal-page";

// The merchant's daily view in a browser: the home overview, a list's CSV export and the global search.

test.use({ role: "staff" });

test("[HOME] a card payment made now counts in today's received total, split by method", async ({ page }) => {
  await new TerminalPage(page).charge({ amount: "17,00", number: freshVisaNumber(), securityCode: "123" });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Visão geral" })).toBeVisible();
  await expect(page.getByText("Recebido").first()).toBeVisible();
  await expect(page.getByText("Por meio de pagamento").first()).toBeVisible();
  await expect(page.getByText("Cartão").first()).toBeVisible();
  await page
    .getByRole("link", { name: "7 dias" })
    .or(page.getByRole("button", { name: "7 dias" }))
    .first()
    .click();
  await expect(page).toHaveURL(/period=7d|7d/);
});

test("[EXPORT] the Pix list exports what its filters select as a CSV for Excel in pt-BR", async ({ page }) => {
  const txid = await new NewPixChargePage(page).create({ amount: "1.234,56", reference: `export-${Date.now()}` });
  await page.goto(`/pix?txid=${txid}`);
  await expect(page.getByText("Valor total: R$ 1.234,56")).toBeVisible();
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Exportar CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const bytes = readFileSync((await download.path())!);
  // UTF-8 with a BOM, `;` between fields, pt-BR amounts, the one charge the filter selects.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString("utf8").slice(1).trim().split(/\r?\n/);
  expect(lines).toHaveLength(2);
  expect(lines[0]).toContain(";");
  expect(lines[1]).toContain(txid);
  expect(lines[1]).toContain("1.234,56");
  await expect(page.getByText("1 linha exportada").first()).toBeVisible();
});

test("[SEARCH] Ctrl+K finds a card payment by its last four digits and opens it", async ({ page }) => {
  const number = freshVisaNumber();
  const paymentId = await new TerminalPage(page).charge({ amount: "21,00", number, securityCode: "123" });
  await page.goto("/pix");
  await page.keyboard.press("Control+k");
  const input = page.getByRole("combobox", { name: "Termo de busca" });
  await expect(input).toBeFocused();
  await input.fill(number.slice(-4));
  const option = page
    .getByRole("option")
    .filter({ hasText: number.slice(-4) })
    .first();
  await expect(option).toBeVisible();
  await input.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/payments\//);
  // Another payment may end in the same four digits; ours is among the hits.
  expect(page.url()).toMatch(/\/payments\/[0-9a-f-]{36}$/);
  void paymentId;
});
