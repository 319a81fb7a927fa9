import path from "node:path";
import type { APIResponse, Page } from "@playwright/test";
import {
  matrixRoles,
  pageMatrix,
  routeMatrix,
  samplePath,
  type TMatrixRole,
  type TPageOutcome,
} from "../lib/auth/route-matrix";
import { discoverPages, discoverRouteHandlers } from "../lib/testing/route-discovery";
import { expect, test } from "./fixtures";

// Every page and route handler on disk, requested as anonymous, STAFF and ADMIN against the running
// build, compared with lib/auth/route-matrix.ts (the server actions are called in route-matrix.int.test.ts).

const rootDir = path.resolve(import.meta.dirname, "..");
const pages = discoverPages(rootDir);
const routes = discoverRouteHandlers(rootDir);
const fixtureRole = { anonymous: undefined, STAFF: "staff", ADMIN: "admin" } as const;

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
  return page.evaluate(
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
}

for (const role of matrixRoles) {
  test.describe(`as ${role}`, () => {
    test.use({ role: fixtureRole[role as TMatrixRole] });

    test(`[AUTH] every page answers ${role} as the route matrix says`, async ({ page }) => {
      for (const entry of pages) {
        const expected = pageMatrix[entry.key]?.[role];
        expect.soft(expected, `${entry.key} has no row in lib/auth/route-matrix.ts`).toBeDefined();
        const response = await page.request.get(samplePath(entry.path), { maxRedirects: 0 });
        expect.soft(pageOutcomeOf(response), `GET ${entry.key} as ${role}`).toBe(expected);
      }
    });

    test(`[AUTH] every route handler answers ${role} as the route matrix says`, async ({ page }) => {
      // From a page: an API route's own answer forbids its document to connect anywhere (default-src 'none').
      await page.goto("/login");
      for (const entry of routes) {
        const expected = routeMatrix[entry.key]?.[role];
        expect.soft(expected, `${entry.key} has no row in lib/auth/route-matrix.ts`).toBeDefined();
        const status = await routeStatus(page, entry.method, samplePath(entry.path));
        expect.soft(status, `${entry.key} as ${role}`).toBe(expected);
      }
    });
  });
}
