import { describe, expect, it } from "vitest";
import { appEnvConcern } from "./app-env";
import { EnvValidationError, parseEnvConcern } from "./define-env";

describe("app environment", () => {
  it("trusts no proxy by default and takes a small whole number of hops", () => {
    expect(parseEnvConcern(appEnvConcern, {}).TRUSTED_PROXY_HOPS).toBe(0);
    expect(parseEnvConcern(appEnvConcern, { TRUSTED_PROXY_HOPS: "2" }).TRUSTED_PROXY_HOPS).toBe(2);
  });

  it("refuses hops that are negative, fractional, huge or not a number, saying how to fix it", () => {
    for (const value of ["-1", "1.5", "11", "true"]) {
      expect(() => parseEnvConcern(appEnvConcern, { TRUSTED_PROXY_HOPS: value })).toThrow(EnvValidationError);
    }
    expect(() => parseEnvConcern(appEnvConcern, { TRUSTED_PROXY_HOPS: "x" })).toThrow(
      /TRUSTED_PROXY_HOPS.*reverse proxies/,
    );
  });
});
