import { describe, expect, it } from "vitest";
import { EnvValidationError } from "./define-env";
import { getRetentionEnv } from "./retention-env";

describe("retention env", () => {
  it("defaults to 90, 400, 1 and 30 days", () => {
    expect(getRetentionEnv({})).toEqual({
      RETENTION_WEBHOOK_DELIVERY_DAYS: 90,
      RETENTION_AUDIT_LOG_DAYS: 400,
      RETENTION_RATE_LIMIT_DAYS: 1,
      RETENTION_IDEMPOTENCY_DAYS: 30,
      RETENTION_MAIL_DAYS: 30,
      RETENTION_GATEWAY_CALL_DAYS: 30,
    });
  });

  it("takes other values and refuses zero or fractions", () => {
    expect(getRetentionEnv({ RETENTION_AUDIT_LOG_DAYS: "1825" }).RETENTION_AUDIT_LOG_DAYS).toBe(1825);
    expect(getRetentionEnv({ RETENTION_GATEWAY_CALL_DAYS: "7" }).RETENTION_GATEWAY_CALL_DAYS).toBe(7);
    expect(() => getRetentionEnv({ RETENTION_WEBHOOK_DELIVERY_DAYS: "0" })).toThrow(EnvValidationError);
    expect(() => getRetentionEnv({ RETENTION_RATE_LIMIT_DAYS: "1.5" })).toThrow(EnvValidationError);
  });
});
