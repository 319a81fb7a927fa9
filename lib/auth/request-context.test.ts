import { describe, expect, it, vi } from "vitest";

vi.mock("@/lib/config/server-env", () => ({ serverEnv: { TRUSTED_PROXY_HOPS: 0 } }));

const { readRequestContext } = await import("./request-context");

describe("readRequestContext", () => {
  it("does not take a client's X-Forwarded-For or X-Real-IP for its address", () => {
    const headers = new Headers({
      "x-forwarded-for": "6.6.6.6",
      "x-real-ip": "7.7.7.7",
      "x-peer-address": "198.51.100.7",
      "user-agent": "vitest",
    });
    expect(readRequestContext(headers)).toEqual({ ip: "198.51.100.7", userAgent: "vitest" });
    expect(readRequestContext({ "x-forwarded-for": "6.6.6.6" }).ip).toBeNull();
  });

  it("reads the client behind the configured number of proxies", () => {
    const headers = { "x-forwarded-for": ["6.6.6.6, 203.0.113.9"], "x-peer-address": "127.0.0.1" };
    expect(readRequestContext(headers, 1).ip).toBe("203.0.113.9");
  });
});
