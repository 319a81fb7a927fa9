import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

// The build's routes, which Next.js writes for its own router: a path's template without Next.js's tracing.
const ZRoutesManifest = z.object({
  staticRoutes: z.array(z.object({ page: z.string() })),
  dynamicRoutes: z.array(z.object({ page: z.string(), regex: z.string() })),
});

export type TRouteTemplates = { templateOf: (pathname: string) => string | null };

// The router's own data requests (RSC payloads and prefetched segments) name the page's path with a suffix.
const dataSuffix = /(?:\.segments\/.*|\.rsc)$/;

export function routeTemplates(manifest: unknown): TRouteTemplates {
  const routes = ZRoutesManifest.parse(manifest);
  const staticPages = new Set(routes.staticRoutes.map((route) => route.page));
  const dynamic = routes.dynamicRoutes.map((route) => ({ page: route.page, pattern: new RegExp(route.regex) }));
  return {
    templateOf(pathname) {
      let page = pathname.replace(dataSuffix, "");
      if (page.length > 1 && page.endsWith("/")) page = page.slice(0, -1);
      if (page === "/index") page = "/";
      if (staticPages.has(page)) return page;
      for (const route of dynamic) if (route.pattern.test(page)) return route.page;
      return null;
    },
  };
}

const noTemplates: TRouteTemplates = { templateOf: () => null };

/** The running build's routes; none outside a build (tests, `next dev` before its first compile). */
export function buildRouteTemplates(directory = path.join(process.cwd(), ".next")): TRouteTemplates {
  try {
    return routeTemplates(JSON.parse(readFileSync(path.join(directory, "routes-manifest.json"), "utf8")));
  } catch {
    return noTemplates;
  }
}
