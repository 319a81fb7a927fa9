import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { describe, expect, it } from "vitest";
import nextConfig from "@/next.config";
import { config } from "@/proxy";
import { machineRouteHeaders, machineRoutePrefixes } from "./headers";

const matches = (path: string) => unstable_doesMiddlewareMatch({ config, url: `http://127.0.0.1:3000${path}` });

// The gateway's webhooks and the POS backend skip proxy.ts; next.config.ts must then give them their headers.
describe("machine routes", () => {
  it("are left out of the proxy, and pages and the browser's API routes are not", () => {
    for (const path of [
      "/api/webhooks/gateway/0b8c2f4e-8a5d-4d5e-9f1a-1c2d3e4f5a6b",
      "/v1/transactions",
      "/v1/sellers/activate",
    ])
      expect(matches(path), path).toBe(false);
    for (const path of [
      "/",
      "/pix",
      "/pay/abc",
      "/login",
      "/api/pix/charges",
      "/api/health",
      "/api/webhooks-like",
      "/v1",
    ])
      expect(matches(path), path).toBe(true);
  });

  it("get fixed security headers from next.config.ts", async () => {
    const rules = (await nextConfig.headers?.()) ?? [];
    for (const prefix of machineRoutePrefixes) {
      const rule = rules.find((candidate) => candidate.source === `${prefix}:path*`);
      expect(rule?.headers, prefix).toEqual(machineRouteHeaders);
    }
    const names = machineRouteHeaders.map((header) => header.key);
    expect(names).toEqual(
      expect.arrayContaining(["Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options"]),
    );
    expect(machineRouteHeaders.find((header) => header.key === "Content-Security-Policy")?.value).toMatch(
      /default-src 'none'.*frame-ancestors 'none'/,
    );
  });
});
