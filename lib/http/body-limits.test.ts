import { describe, expect, it } from "vitest";
import nextConfig from "@/next.config";
import { bodyLimits, largestAcceptedBody, proxyBodyCopyLimit } from "./body-limits";

describe("body limits in next.config.ts", () => {
  it("caps server actions below Next's 1 MB default, and the proxy's copy of a page's body below its 10 MB", () => {
    expect(nextConfig.experimental?.serverActions?.bodySizeLimit).toBe(bodyLimits.serverAction);
    expect(nextConfig.experimental?.proxyClientMaxBodySize).toBe(proxyBodyCopyLimit);
    expect(bodyLimits.serverAction).toBeLessThan(1024 * 1024);
  });

  it("keeps the proxy's copy above the actions' cap, so an oversized action gets a 413, not a cut-off body", () => {
    expect(proxyBodyCopyLimit - bodyLimits.serverAction).toBeGreaterThanOrEqual(64 * 1024);
  });

  it("lets nginx pass the largest body a route accepts and nothing larger than needed", () => {
    expect(largestAcceptedBody).toBe(bodyLimits.webhookDelivery);
  });
});
