import { describe, expect, it } from "vitest";
import { merchantAdviceOf } from "./advice";

describe("merchantAdviceOf", () => {
  it("reads the three known codes", () => {
    expect(merchantAdviceOf("01")).toEqual({ code: "01", kind: "updateCard", canRetry: true });
    expect(merchantAdviceOf("02")).toEqual({ code: "02", kind: "retryLater", canRetry: true });
    expect(merchantAdviceOf("03")).toEqual({ code: "03", kind: "doNotRetry", canRetry: false });
    expect(merchantAdviceOf("3")).toMatchObject({ code: "03", kind: "doNotRetry" });
  });

  it("gives a generic advice for an unknown code, and none without a code", () => {
    expect(merchantAdviceOf("21")).toEqual({ code: "21", kind: "unknown", canRetry: true });
    expect(merchantAdviceOf(null)).toBeNull();
    expect(merchantAdviceOf(" ")).toBeNull();
  });
});
