import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import nextConfig from "@/next.config";
import { config, proxy } from "@/proxy";
import { apiRouteHeaders, apiRoutePrefixes } from "./headers";

const matches = (path: string) => unstable_doesMiddlewareMatch({ config, url: `http://127.0.0.1:3000${path}` });

// The routes that answer data (the browser's API, the gateway's webhooks, the POS backend) skip proxy.ts;
// next.config.ts must then give them their headers.
describe("API routes", () => {
  it("are left out of the proxy, and pages are not", () => {
    for (const path of [
      "/api/webhooks/gateway/0b8c2f4e-8a5d-4d5e-9f1a-1c2d3e4f5a6b",
      "/api/pix/charges",
      "/api/health",
      "/api/exports/pix",
      "/v1/transactions",
      "/v1/sellers/activate",
    ])
      expect(matches(path), path).toBe(false);
    for (const path of ["/", "/pix", "/pay/abc", "/login", "/apis", "/v1", "/webhooks"])
      expect(matches(path), path).toBe(true);
  });

  it("get fixed security headers from next.config.ts", async () => {
    const rules = (await nextConfig.headers?.()) ?? [];
    for (const prefix of apiRoutePrefixes) {
      const rule = rules.find((candidate) => candidate.source === `${prefix}:path*`);
      expect(rule?.headers, prefix).toEqual(apiRouteHeaders);
    }
    const names = apiRouteHeaders.map((header) => header.key);
    expect(names).toEqual(
      expect.arrayContaining(["Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options"]),
    );
    expect(apiRouteHeaders.find((header) => header.key === "Content-Security-Policy")?.value).toMatch(
      /default-src 'none'.*frame-ancestors 'none'/,
    );
  });

  it("leave the proxy to pages, which it sends to the sign-in page without a session cookie", () => {
    const response = proxy(new NextRequest("http://127.0.0.1:3000/pos?tab=keys"));
    expect(response.headers.get("location")).toMatch(/\/login\?callbackUrl=%2Fpos%3Ftab%3Dkeys$/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
