import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // PGlite ships WASM and data files that must be loaded from node_modules at run time.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pino", "pino-pretty"],
  // forbidden() renders app/forbidden.tsx with HTTP 403 when a STAFF user opens an admin page.
  experimental: { authInterrupts: true },
  // Server-action arguments are never logged: the payer's card form posts to one.
  logging: { serverFunctions: false },
};

export default withNextIntl(nextConfig);
