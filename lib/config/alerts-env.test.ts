import { describe, expect, it } from "vitest";
import { getAlertsEnv } from "./alerts-env";
import { EnvValidationError } from "./define-env";

describe("alerts env", () => {
  it("evaluates every minute by default, accepts 0 to turn alerts off, and refuses what is out of range", () => {
    expect(getAlertsEnv({})).toEqual({ ALERTS_EVALUATE_INTERVAL_SECONDS: 60 });
    expect(getAlertsEnv({ ALERTS_EVALUATE_INTERVAL_SECONDS: "0" }).ALERTS_EVALUATE_INTERVAL_SECONDS).toBe(0);
    expect(getAlertsEnv({ ALERTS_EVALUATE_INTERVAL_SECONDS: "2" }).ALERTS_EVALUATE_INTERVAL_SECONDS).toBe(2);
    expect(() => getAlertsEnv({ ALERTS_EVALUATE_INTERVAL_SECONDS: "-1" })).toThrow(EnvValidationError);
    expect(() => getAlertsEnv({ ALERTS_EVALUATE_INTERVAL_SECONDS: "3601" })).toThrow(EnvValidationError);
  });
});
