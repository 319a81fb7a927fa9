import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { assertWebhookUrlAllowed } from "./url-policy";

const production = { NODE_ENV: "production" };

describe("webhook URL policy", () => {
  it("refuses an http receiver on a production server, naming the field and the fix", () => {
    let error: unknown;
    try {
      assertWebhookUrlAllowed("http://erp.example.com/hooks", production);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).fieldErrors).toEqual({ url: "httpsRequired" });
    expect(() => assertWebhookUrlAllowed("https://erp.example.com/hooks", production)).not.toThrow();
  });

  it("allows http in development, during the build, and with the local-gateway opt-out", () => {
    const url = "http://127.0.0.1:3000/api/webhooks/gateway/x";
    expect(() => assertWebhookUrlAllowed(url, { NODE_ENV: "development" })).not.toThrow();
    expect(() => assertWebhookUrlAllowed(url, { ...production, NEXT_PHASE: "phase-production-build" })).not.toThrow();
    expect(() => assertWebhookUrlAllowed(url, { ...production, ALLOW_INSECURE_LOCAL_GATEWAY: "1" })).not.toThrow();
  });
});
