import { describe, expect, it } from "vitest";
import { buildContentSecurityPolicy, buildSecurityHeaders, createNonce } from "./headers";

const base = { nonce: "abc123", isHttps: false, isDevelopment: false, pathname: "/pix" };

describe("security headers", () => {
  it("gives every request its own unguessable nonce", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    expect(Buffer.from([...nonces][0]!, "base64")).toHaveLength(16);
  });

  it("allows scripts from this origin and this response's nonce only, and no framing", () => {
    const policy = buildContentSecurityPolicy(base);
    expect(policy).toContain("script-src 'self' 'nonce-abc123';");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).not.toMatch(/unsafe-eval|strict-dynamic|upgrade-insecure-requests/);
    expect(buildContentSecurityPolicy({ ...base, isDevelopment: true })).toContain("'unsafe-eval'");
  });

  it("sends HSTS and upgrades requests only when the app is served over https", () => {
    expect(buildSecurityHeaders(base)["Strict-Transport-Security"]).toBeUndefined();
    const https = buildSecurityHeaders({ ...base, isHttps: true });
    expect(https["Strict-Transport-Security"]).toBe("max-age=63072000; includeSubDomains");
    expect(https["Content-Security-Policy"]).toContain("upgrade-insecure-requests");
  });

  it("keeps the pay page's URL out of referrers, and blocks sniffing and device features", () => {
    const headers = buildSecurityHeaders({ ...base, pathname: "/pay/0b8c2f4e-8a5d-4d5e-9f1a-1c2d3e4f5a6b" });
    expect(headers["Referrer-Policy"]).toBe("same-origin");
    expect(buildSecurityHeaders(base)["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Permissions-Policy"]).toMatch(/camera=\(\).*payment=\(\)/);
  });
});
