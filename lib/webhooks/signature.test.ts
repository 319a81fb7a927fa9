import { describe, expect, it } from "vitest";
import { checkWebhookSignature, checkWebhookTimestamp, signWebhookBody } from "./signature";

const secret = "whsec_test";
const body = Buffer.from('{"event":"pix_charge.paid"}');

describe("webhook signature", () => {
  it("accepts the HMAC of the exact bytes, in either hex case", () => {
    const signature = signWebhookBody(secret, body);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(checkWebhookSignature(secret, body, signature)).toEqual({ isValid: true });
    expect(checkWebhookSignature(secret, body, signature.toUpperCase())).toEqual({ isValid: true });
  });

  it("says why a signature is refused, without throwing on malformed headers", () => {
    const signature = signWebhookBody(secret, body);
    expect(checkWebhookSignature(secret, body, null)).toEqual({ isValid: false, reason: "missing" });
    expect(checkWebhookSignature(secret, body, signature.slice(1))).toEqual({ isValid: false, reason: "wrong_length" });
    expect(checkWebhookSignature(secret, body, `${signature.slice(0, 63)}z`)).toEqual({
      isValid: false,
      reason: "not_hex",
    });
    expect(checkWebhookSignature("other", body, signature)).toEqual({ isValid: false, reason: "mismatch" });
    expect(checkWebhookSignature(secret, Buffer.from(`${body} `), signature)).toEqual({
      isValid: false,
      reason: "mismatch",
    });
  });
});

describe("webhook timestamp", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  const seconds = now.getTime() / 1000;

  it("accepts up to 5 minutes either way", () => {
    expect(checkWebhookTimestamp(String(seconds - 300), now)).toEqual({ isFresh: true });
    expect(checkWebhookTimestamp(String(seconds + 300), now)).toEqual({ isFresh: true });
  });

  it("refuses stale, future, missing and malformed timestamps", () => {
    expect(checkWebhookTimestamp(String(seconds - 301), now)).toEqual({ isFresh: false, reason: "too_old" });
    expect(checkWebhookTimestamp(String(seconds + 301), now)).toEqual({ isFresh: false, reason: "in_the_future" });
    expect(checkWebhookTimestamp(undefined, now)).toEqual({ isFresh: false, reason: "missing" });
    expect(checkWebhookTimestamp("2026-11-21T12:00:00Z", now)).toEqual({ isFresh: false, reason: "malformed" });
  });
});
