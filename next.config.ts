import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

import { bodyLimits, proxyBodyCopyLimit } from "./lib/http/body-limits";
import { apiRouteHeaders, apiRoutePrefixes, staticAssetHeaders } from "./lib/security/headers";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pino"],
  experimental: {
    // forbidden() renders app/forbidden.tsx with HTTP 403 when a STAFF user opens an admin page.
    authInterrupts: true,
    // Body caps (docs/security.md, "Inputs"): server actions are counted while they stream (Next's default is 1 MB);
    // the proxy's copy of a page's body would otherwise hold up to 10 MB per request.
    serverActions: { bodySizeLimit: bodyLimits.serverAction },
    proxyClientMaxBodySize: proxyBodyCopyLimit,
  },
  // `npm test` runs tsc on the same sources beside the build: its build skips Next's second pass of the compiler.
  typescript: { ignoreBuildErrors: process.env.BUILD_SKIP_TYPECHECK === "1" },
  // Server-action arguments are never logged: the payer's card form posts to one.
  logging: { serverFunctions: false },
  // Pages get their security headers from proxy.ts, per request (the CSP nonce, HSTS by APP_URL); the routes that
  // answer data (/api, /v1), which proxy.ts's matcher leaves out, get fixed ones here at no cost per request.
  // /_next/static not in development: its server sends a manifest there as JSON, which nosniff refuses to run.
  headers: async () => [
    ...apiRoutePrefixes.map((prefix) => ({ source: `${prefix}:path*`, headers: apiRouteHeaders })),
    ...(process.env.NODE_ENV === "production" ? [{ source: "/_next/static/:path*", headers: staticAssetHeaders }] : []),
  ],
};

export default withNextIntl(nextConfig);
