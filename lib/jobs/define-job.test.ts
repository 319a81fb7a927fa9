import { describe, expect, it } from "vitest";
import { noRetry, retryDelayMs } from "./define-job";

describe("retryDelayMs", () => {
  it("doubles the wait for each retry and gives up after maxAttempts tries", () => {
    const policy = { maxAttempts: 3, backoffMs: 1_000 };
    expect(retryDelayMs(policy, 1)).toBe(1_000);
    expect(retryDelayMs(policy, 2)).toBe(2_000);
    expect(retryDelayMs(policy, 3)).toBeNull();
  });

  it("never retries with noRetry", () => {
    expect(retryDelayMs(noRetry, 1)).toBeNull();
  });
});
