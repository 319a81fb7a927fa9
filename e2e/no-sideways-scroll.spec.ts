import type { Page } from "@playwright/test";
import { pageMatrix, samplePath } from "../lib/auth/route-matrix";
import { NewPixChargePage } from "./pages/new-pix-charge-page";
import { PixChargePage } from "./pages/pix-charge-page";
import { WebhooksPage } from "./pages/webhooks-page";
import { expect, test } from "./pay-gateway";

// Every dashboard page on a phone (390 px wide) as an admin: nothing may push the page sideways. Detail pages
// get real records where the test can make one cheaply, the matrix's sample id (the not-found page) otherwise.

test.use({ role: "admin" });

const phone = { width: 390, height: 844 };
// Not dashboard pages: the sign-in page redirects a signed-in admin, and the payer's page has its own specs.
const outsideDashboard = new Set(["/login", "/pay/[uuid]"]);
// Lists that always have rows here (the admin's own sign-ins, the seeded users, the charges made below), so their
// card layout is measured.
const listsWithRows = new Set(["/audit", "/users", "/pix"]);

/** The page's horizontal overflow, with the widest offenders named, for a readable failure. */
async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const limit = root.clientWidth;
    const offenders = [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((element) => element.getBoundingClientRect().right > limit + 1)
      // Inside a scrolling box (a wide table) the overflow is the box's, not the page's.
      .filter((element) => !element.parentElement?.closest("[data-slot=table-container], [data-scroll-x]"))
      .slice(0, 5)
      .map((element) => {
        const name = element.tagName.toLowerCase();
        const classes = String(element.className).split(" ").slice(0, 4).join(".");
        return `${name}${classes ? `.${classes}` : ""} (right ${Math.round(element.getBoundingClientRect().right)})`;
      });
    return { scrollWidth: root.scrollWidth, clientWidth: limit, offenders };
  });
}

/** The table boxes that scroll sideways, each named by its caption or first header, with its widths. */
async function scrollingTables(page: Page) {
  return page.locator("[data-slot=table-container]").evaluateAll((boxes) =>
    boxes
      .filter((box) => box.scrollWidth > box.clientWidth + 1)
      .map((box) => {
        const table = box.querySelector("table");
        const name = table?.caption?.textContent || table?.querySelector("th")?.textContent || "table";
        return `${name.trim()} (${box.scrollWidth} > ${box.clientWidth})`;
      }),
  );
}

/** Card cells (a list on a phone) whose value runs past the cell into its neighbour, with their widths. */
async function overflowingCells(page: Page) {
  return page
    .locator("[data-slot=table-container] td")
    .evaluateAll((cells) =>
      cells
        .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
        .map((cell) => `${cell.textContent?.trim().slice(0, 40)} (${cell.scrollWidth} > ${cell.clientWidth})`),
    );
}

// Late content (client lists, live data) lands after the first paint, in place of its skeletons.
async function settle(page: Page) {
  await page.waitForLoadState("load");
  await expect(page.locator("[data-slot=skeleton]")).toHaveCount(0);
}

async function expectNoSidewaysScroll(page: Page, path: string) {
  const response = await page.goto(path);
  expect.soft(response?.status(), `GET ${path}`).toBeLessThan(500);
  await expect(page.locator("main h1, h1").first()).toBeVisible();
  await settle(page);
  if (listsWithRows.has(path)) {
    await expect.soft(page.locator("[data-slot=table-container] tbody tr").first(), `${path} lists rows`).toBeVisible();
  }
  const overflow = await sidewaysOverflow(page);
  expect
    .soft(overflow.scrollWidth, `${path} scrolls sideways at 390 px: ${overflow.offenders.join(", ")}`)
    .toBeLessThanOrEqual(overflow.clientWidth);
  // On a phone every list shows its rows as cards (DataTable): a table box that scrolls sideways is a list
  // still rendered as a wide table.
  expect
    .soft(await scrollingTables(page), `${path} has a table that scrolls sideways inside its box at 390 px`)
    .toEqual([]);
  expect.soft(await overflowingCells(page), `${path} has card values running into their neighbours`).toEqual([]);
}

test("[AUTH] no dashboard page scrolls sideways on a 390 px phone", async ({ page, sandbox, links, baseURL }) => {
  test.setTimeout(360_000);
  await page.setViewportSize(phone);

  // A paid, partly refunded charge, so the charge page shows its payment, refunds and form.
  const txid = await new NewPixChargePage(page).create({ amount: "31,40", description: "Largura no celular" });
  await sandbox.payPixCharge(txid);
  const charge = new PixChargePage(page);
  await charge.goto(txid);
  await charge.expectStatus("Paga", "PAID");
  await charge.refund("1,40", "Uma devolução com uma mensagem longa ao pagador para testar a largura");
  await charge.expectStatus("Devolvida em parte", "PARTIALLY REFUNDED");
  const link = await links.createLink({ valor: 55 });
  // And one left unpaid: its status ("Aguardando pagamento") is the longest a list shows.
  await new NewPixChargePage(page).create({ amount: "12,00", description: "Pendente no celular" });

  const realParams: Record<string, string> = {
    "/pix/[txid]": `/pix/${txid}`,
    "/links/[uuid]": `/links/${link.linkPaymentUuid}`,
  };
  const paths = Object.keys(pageMatrix)
    .filter((path) => !outsideDashboard.has(path))
    .map((path) => realParams[path] ?? samplePath(path));
  expect(paths.length).toBeGreaterThan(20);
  for (const path of paths) await expectNoSidewaysScroll(page, path);

  // English writes dates and times longer ("11/24/2026, 06:32 PM"): the pages with lists, again in English.
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL! }]);
  const pagesWithoutLists = new Set(["/", "/account/password", "/account/security", "/settings", "/pos"]);
  const listPaths = Object.keys(pageMatrix).filter(
    (path) =>
      !outsideDashboard.has(path) && !pagesWithoutLists.has(path) && !path.endsWith("/new") && !path.includes("["),
  );
  for (const path of [...listPaths, ...Object.values(realParams)]) await expectNoSidewaysScroll(page, path);
});

test("[AUTH] the lists fit a 1280 px laptop without scrolling sideways, in Portuguese and English", async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // An unpaid charge (the longest status) of a five-digit amount, with a debtor and a long reference, and the
  // admin's own audit entries.
  await new NewPixChargePage(page).create({
    amount: "12.345,67",
    debtorName: "Maria Aparecida dos Santos Oliveira",
    debtorDocument: "52998224725",
    reference: "PEDIDO-2026-11-24-LOJA-CENTRO-CAIXA-03-CLIENTE-0009912",
  });
  for (const locale of ["pt-BR", "en"]) {
    await page.context().addCookies([{ name: "NEXT_LOCALE", value: locale, url: baseURL! }]);
    for (const path of ["/pix", "/audit", "/users", "/webhooks/deliveries", "/payments"]) {
      await page.goto(path);
      await settle(page);
      if (listsWithRows.has(path))
        await expect(page.locator("[data-slot=table-container] tbody tr").first()).toBeVisible();
      expect
        .soft(await scrollingTables(page), `${path} (${locale}) scrolls sideways inside its box at 1280 px`)
        .toEqual([]);
    }
  }
});

test("[WEBHOOKS] after a rotation the webhooks table fits its card on a desktop, URLs and row menu included", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // The one-time secret dialog is closed after copying the secret (WebhooksPage reads the clipboard).
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const webhooks = new WebhooksPage(page);
  await webhooks.goto();
  const old = await webhooks.register();
  const rotated = await webhooks.rotate(old.url, "1 hora");
  await expect(webhooks.row(rotated.url)).toContainText("Substitui o webhook");

  const box = webhooks.table.locator("xpath=..");
  expect(await box.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  for (const url of [old.url, rotated.url]) {
    const row = webhooks.row(url);
    // The whole URL is on screen (wrapped, not cut), and so is the row's menu button.
    const urlText = row.getByText(url, { exact: true });
    expect(await urlText.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await expect(row.getByRole("button", { name: `Ações do webhook ${url}` })).toBeInViewport();
  }

  await page.setViewportSize(phone);
  await expect(
    webhooks.row(rotated.url).getByRole("button", { name: `Ações do webhook ${rotated.url}` }),
  ).toBeVisible();
  const overflow = await sidewaysOverflow(page);
  expect(overflow.scrollWidth, overflow.offenders.join(", ")).toBeLessThanOrEqual(overflow.clientWidth);
  await webhooks.deactivate(rotated.url);
});
