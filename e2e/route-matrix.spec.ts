import path from "node:path";
import type { APIRequestContext, APIResponse, Browser, Page } from "@playwright/test";
import {
  anonymousIdentity,
  essentialIdentities,
  expectedOutcome,
  pageMatrix,
  routeMatrix,
  samplePath,
  type TMatrixIdentity,
  type TPageOutcome,
} from "../lib/auth/route-matrix";
import { discoverPages, discoverRouteHandlers } from "../lib/testing/route-discovery";
import { expect, signedOut, test } from "./fixtures";

// Every page and route handler on disk, requested against the running build as anonymous, as a person holding only
// the permission its row names and as one holding every other, compared with lib/auth/route-matrix.ts (the server
// actions are called for every permission in route-matrix.int.test.ts).

const rootDir = path.resolve(import.meta.dirname, "..");
const pages = discoverPages(rootDir);
const routes = discoverRouteHandlers(rootDir);
// Over http, as the e2e servers run (lib/auth/session-cookie.ts).
const sessionCookie = "next-auth.session-token";

test.use(signedOut);

function identitiesOf(access: Parameters<typeof essentialIdentities>[0]): TMatrixIdentity[] {
  return [anonymousIdentity, ...essentialIdentities(access).filter((identity) => identity.permissions)];
}

function pageOutcomeOf(response: APIResponse): TPageOutcome | string {
  const status = response.status();
  if (status >= 300 && status < 400) {
    const target = new URL(response.headers().location ?? "", "http://app.invalid").pathname;
    return target === "/login" ? "login" : `redirect:${target}`;
  }
  return ({ 200: "ok", 403: "forbidden", 404: "not-found" } as Record<number, TPageOutcome>)[status] ?? String(status);
}

// In the browser, so the session cookie goes along and a never-ending stream (/api/events) is cut after its headers.
async function routeStatus(page: Page, method: string, url: string): Promise<number> {
  const status = await page.evaluate(
    async ({ method, url }) => {
      const controller = new AbortController();
      const hasBody = method !== "GET" && method !== "HEAD";
      const response = await fetch(url, {
        method,
        redirect: "manual",
        signal: controller.signal,
        headers: hasBody ? { "content-type": "application/json" } : {},
        body: hasBody ? "{}" : undefined,
      });
      controller.abort();
      return response.status;
    },
    { method, url },
  );
  // A redirect reaches a page's fetch opaque (status 0): ask again outside the page, with the same cookies.
  if (status !== 0) return status;
  return (await page.request.fetch(url, { method, maxRedirects: 0 })).status();
}

test("[AUTH] every page answers each permission as the route matrix says", async ({ playwright, baseURL, seed }) => {
  test.setTimeout(240_000);
  const clients = new Map<string, APIRequestContext>();
  const clientOf = async (identity: TMatrixIdentity) => {
    const token = seed.sessions[identity.name];
    const client =
      clients.get(identity.name) ??
      (await playwright.request.newContext({
        baseURL,
        extraHTTPHeaders: token ? { cookie: `${sessionCookie}=${token}` } : {},
      }));
    clients.set(identity.name, client);
    return client;
  };
  for (const entry of pages) {
    const access = pageMatrix[entry.key];
    expect.soft(access, `${entry.key} has no row in lib/auth/route-matrix.ts`).toBeDefined();
    if (!access) continue;
    for (const identity of identitiesOf(access)) {
      const response = await (await clientOf(identity)).get(samplePath(entry.path), { maxRedirects: 0 });
      expect
        .soft(pageOutcomeOf(response), `GET ${entry.key} as ${identity.name}`)
        .toBe(expectedOutcome("page", access, identity));
    }
  }
  for (const client of clients.values()) await client.dispose();
});

async function pageAs(browser: Browser, baseURL: string, token: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  if (token) await context.addCookies([{ name: sessionCookie, value: token, url: baseURL }]);
  const page = await context.newPage();
  // From a page: an API route's own answer forbids its document to connect anywhere (default-src 'none').
  await page.goto("/login");
  return page;
}

test("[AUTH] every route handler answers each permission as the route matrix says", async ({
  browser,
  baseURL,
  seed,
}) => {
  test.setTimeout(240_000);
  const pagesByIdentity = new Map<string, Page>();
  for (const entry of routes) {
    const access = routeMatrix[entry.key];
    expect.soft(access, `${entry.key} has no row in lib/auth/route-matrix.ts`).toBeDefined();
    if (!access) continue;
    for (const identity of identitiesOf(access)) {
      const page =
        pagesByIdentity.get(identity.name) ?? (await pageAs(browser, baseURL!, seed.sessions[identity.name]));
      pagesByIdentity.set(identity.name, page);
      const status = await routeStatus(page, entry.method, samplePath(entry.path));
      expect.soft(status, `${entry.key} as ${identity.name}`).toBe(expectedOutcome("route", access, identity));
    }
  }
  for (const page of pagesByIdentity.values()) await page.context().close();
});

test("[AUTH] a forbidden page offers the first page the person may open, even when home is out of reach", async ({
  browser,
  baseURL,
  seed,
}) => {
  const page = await pageAs(browser, baseURL!, seed.sessions["all but payments.view"]);
  const response = await page.goto("/");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Acesso negado" })).toBeVisible();
  // Without payments, the menu starts at the webhook deliveries.
  await page.getByRole("link", { name: "Ir para Entregas de webhooks" }).click();
  await expect(page).toHaveURL(/\/webhooks\/deliveries$/);
  expect((await page.request.get("/webhooks/deliveries")).status()).toBe(200);
  await page.context().close();
});
