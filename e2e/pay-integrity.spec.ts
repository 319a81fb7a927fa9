import { existsSync } from "node:fs";
import path from "node:path";
import type { Page, Response } from "@playwright/test";

import { PayPage } from "./pages/pay-page";
import { expect, test } from "./pay-gateway";
import { rootDir } from "./targets";

// PCI DSS 4.0 6.4.3 and 11.6.1 for the payer's page: every script it runs is one of this build's own
// chunks or carries this response's nonce, and its security headers are exactly the reviewed ones
// (docs/pay-page.md, "Scripts and headers"). The lists are literal on purpose: a change to the policy
// fails here until someone reviews it and updates this file and the inventory.
const expectedPolicy = {
  "default-src": "'self'",
  "script-src": "'self' 'nonce-{nonce}'",
  "style-src": "'self' 'unsafe-inline'",
  "img-src": "'self' data: blob:",
  "font-src": "'self'",
  "connect-src": "'self'",
  "worker-src": "'self'",
  "manifest-src": "'self'",
  "media-src": "'self'",
  "object-src": "'none'",
  "frame-src": "'none'",
  "base-uri": "'none'",
  "form-action": "'self'",
  "frame-ancestors": "'none'",
};
// The e2e app runs on http://localhost: no HSTS and no upgrade-insecure-requests (both come with https).
const expectedHeaders = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "permissions-policy":
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), bluetooth=(), " +
    "display-capture=(), browsing-topics=()",
  "cross-origin-opener-policy": "same-origin",
};
const buildDir = path.join(rootDir, ".next");

function readPolicy(response: Response): { nonce: string; directives: Record<string, string> } {
  const header = response.headers()["content-security-policy"] ?? "";
  const directives = Object.fromEntries(
    header.split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values.join(" ")];
    }),
  );
  const nonce = /'nonce-([^']+)'/.exec(directives["script-src"] ?? "")?.[1] ?? "";
  return {
    nonce,
    directives: { ...directives, "script-src": (directives["script-src"] ?? "").replace(nonce, "{nonce}") },
  };
}

async function expectReviewedHeaders(response: Response | null): Promise<string> {
  expect(response?.status()).toBe(200);
  const { nonce, directives } = readPolicy(response!);
  expect(nonce.length, "a nonce in script-src").toBeGreaterThanOrEqual(16);
  expect(directives).toEqual(expectedPolicy);
  const headers = response!.headers();
  expect(Object.fromEntries(Object.keys(expectedHeaders).map((name) => [name, headers[name]]))).toEqual(
    expectedHeaders,
  );
  expect(headers["strict-transport-security"]).toBeUndefined();
  return nonce;
}

// Every <script> in the document: external ones are this build's chunks, inline ones carry the nonce.
async function expectAuthorizedScripts(page: Page, nonce: string, origin: string) {
  const scripts = await page.locator("script").evaluateAll((elements) =>
    elements.map((element) => {
      const script = element as HTMLScriptElement;
      return { src: script.src, nonce: script.nonce, type: script.type };
    }),
  );
  for (const script of scripts.filter((entry) => !entry.src && entry.type !== "application/json")) {
    expect(script.nonce, "an inline script without this response's nonce").toBe(nonce);
  }
  for (const script of scripts.filter((entry) => entry.src)) {
    expect(new URL(script.src).origin).toBe(origin);
  }
}

test("[PAY] the hosted page runs only its own nonced scripts and sends the reviewed security headers", {
  tag: "@pci",
}, async ({ page, links, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const loaded = new Set<string>();
  page.on("request", (request) => {
    if (request.resourceType() === "script") loaded.add(request.url());
  });
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (load|execute)/i.test(message.text())) violations.push(message.text());
  });

  const link = await links.createLink();
  const pay = new PayPage(page);
  // The code step, then the payment step with both methods, each a fresh response with a fresh nonce.
  const codeStepNonce = await expectReviewedHeaders(await pay.goto(link.linkPaymentUuid));
  await expectAuthorizedScripts(page, codeStepNonce, origin);
  await pay.verify(link.tokenVerificacao);
  const paymentStep = await page.reload();
  const paymentStepNonce = await expectReviewedHeaders(paymentStep);
  expect(paymentStepNonce).not.toBe(codeStepNonce);
  await expectAuthorizedScripts(page, paymentStepNonce, origin);
  await pay.chooseMethod("Pix");
  await pay.chooseMethod("Cartão de crédito");
  await expect(pay.cardNumber).toBeVisible();

  // Each script file is one this build produced: same origin, under /_next/static, present in .next.
  expect(loaded.size).toBeGreaterThan(0);
  for (const url of loaded) {
    const { origin: scriptOrigin, pathname } = new URL(url);
    expect(scriptOrigin, url).toBe(origin);
    expect(pathname, url).toMatch(/^\/_next\/static\//);
    expect(
      existsSync(path.join(buildDir, "static", decodeURIComponent(pathname.slice("/_next/static/".length)))),
      url,
    ).toBe(true);
  }
  expect(violations).toEqual([]);
});

// The payer's page loads the root layout's stylesheet of its own utilities, not the staff pages' whole one
// (app/root.css, docs/pay-page.md), and its form is styled by it.
test("[PAY] the hosted page loads only its own stylesheet, which styles its form", async ({ page, links }) => {
  const stylesheets = new Set<string>();
  page.on("request", (request) => {
    if (request.resourceType() === "stylesheet") stylesheets.add(new URL(request.url()).pathname);
  });
  const link = await links.createLink();
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await pay.verify(link.tokenVerificacao);
  await expect(pay.cardNumber).toBeVisible();
  const payPageSheets = [...stylesheets];
  const submit = page.locator("main form button[type=submit]").last();
  expect(await submit.evaluate((button) => getComputedStyle(button).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
  expect(await pay.cardNumber.evaluate((input) => getComputedStyle(input).borderTopWidth)).toBe("1px");

  await page.goto("/login");
  await expect(page.locator("input[type=password]")).toBeVisible();
  const staffSheets = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].map((link) => new URL(link.href).pathname),
  );
  expect(payPageSheets).toHaveLength(1);
  expect(staffSheets).toContain(payPageSheets[0]);
  expect(staffSheets.filter((sheet) => sheet !== payPageSheets[0])).toHaveLength(1);
});
