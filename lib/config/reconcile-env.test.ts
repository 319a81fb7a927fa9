import { describe, expect, it } from "vitest";
import { EnvValidationError } from "./define-env";
import { getReconcileEnv } from "./reconcile-env";

describe("reconcile environment", () => {
  it("defaults to every 5 minutes over the last 48 hours, with 50 older rows of each kind read by id", () => {
    expect(getReconcileEnv({})).toEqual({
      RECONCILE_INTERVAL_SECONDS: 300,
      RECONCILE_WINDOW_HOURS: 48,
      RECONCILE_OLDER_CHECKS: 50,
    });
  });

  it("accepts 0 to disable the schedule, and refuses an interval that would hammer the gateway", () => {
    expect(getReconcileEnv({ RECONCILE_INTERVAL_SECONDS: "0" }).RECONCILE_INTERVAL_SECONDS).toBe(0);
    expect(() => getReconcileEnv({ RECONCILE_INTERVAL_SECONDS: "5" })).toThrow(EnvValidationError);
    expect(() => getReconcileEnv({ RECONCILE_WINDOW_HOURS: "0" })).toThrow(EnvValidationError);
    expect(getReconcileEnv({ RECONCILE_OLDER_CHECKS: "0" }).RECONCILE_OLDER_CHECKS).toBe(0);
    expect(() => getReconcileEnv({ RECONCILE_OLDER_CHECKS: "5000" })).toThrow(EnvValidationError);
  });
});
