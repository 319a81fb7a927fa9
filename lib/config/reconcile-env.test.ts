import { describe, expect, it } from "vitest";
import { EnvValidationError } from "./define-env";
import { getReconcileEnv } from "./reconcile-env";

describe("reconcile environment", () => {
  it("defaults to every 5 minutes over the last 48 hours", () => {
    expect(getReconcileEnv({})).toEqual({ RECONCILE_INTERVAL_SECONDS: 300, RECONCILE_WINDOW_HOURS: 48 });
  });

  it("accepts 0 to disable the schedule, and refuses an interval that would hammer the gateway", () => {
    expect(getReconcileEnv({ RECONCILE_INTERVAL_SECONDS: "0" }).RECONCILE_INTERVAL_SECONDS).toBe(0);
    expect(() => getReconcileEnv({ RECONCILE_INTERVAL_SECONDS: "5" })).toThrow(EnvValidationError);
    expect(() => getReconcileEnv({ RECONCILE_WINDOW_HOURS: "0" })).toThrow(EnvValidationError);
  });
});
