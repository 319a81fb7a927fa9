import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "@/proxy";

// POS devices call /v1 with an API key and no session cookie: the proxy must let them through (no sign-in
// redirect) and still set the security headers.
describe("proxy and the POS backend", () => {
  it("does not send /v1 calls without a session cookie to the sign-in page", () => {
    for (const path of ["/v1/sellers/activate", "/v1/transactions", "/v1/transactions/config?posId=pos_x"]) {
      const response = proxy(new NextRequest(`http://127.0.0.1:3000${path}`));
      expect(response.headers.get("location"), path).toBeNull();
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("still sends a page without a session cookie to the sign-in page", () => {
    expect(proxy(new NextRequest("http://127.0.0.1:3000/pos")).headers.get("location")).toMatch(/\/login/);
  });
});
