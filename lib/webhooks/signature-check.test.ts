import { describe, expect, it } from "vitest";

import { signWebhookBody } from "./signature";
import { diagnoseSignature } from "./signature-check";

const secret = "whsec_0123456789abcdef0123456789abcdef0123456789abcdef";
const body = '{"event":"pix_charge.paid","data":{"txid":"abc"}}';

describe("diagnoseSignature", () => {
  it("accepts the hex HMAC of the exact body", () => {
    expect(diagnoseSignature({ body, secret, signature: signWebhookBody(secret, body) })).toEqual({ isValid: true });
    expect(diagnoseSignature({ body, secret, signature: ` ${signWebhookBody(secret, body)}\n` })).toEqual({
      isValid: true,
    });
  });

  it("tells a missing, short or non-hex signature apart", () => {
    expect(diagnoseSignature({ body, secret, signature: "" })).toMatchObject({ reason: "missing" });
    expect(diagnoseSignature({ body, secret, signature: "abc" })).toMatchObject({
      reason: "wrong_length",
      signatureLength: 3,
    });
    expect(diagnoseSignature({ body, secret, signature: "z".repeat(64) })).toMatchObject({ reason: "not_hex" });
  });

  it("says which change to the body would have matched", () => {
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    expect(diagnoseSignature({ body: pretty, secret, signature: signWebhookBody(secret, body) })).toEqual({
      isValid: false,
      reason: "mismatch",
      bodyHint: "reserialized",
    });
    expect(diagnoseSignature({ body: `${body}\n`, secret, signature: signWebhookBody(secret, body) })).toMatchObject({
      bodyHint: "trailingNewline",
    });
    expect(diagnoseSignature({ body: "a\nb", secret, signature: signWebhookBody(secret, "a\r\nb") })).toMatchObject({
      bodyHint: "lineEndings",
    });
  });

  it("reports a plain mismatch for another secret", () => {
    expect(diagnoseSignature({ body, secret: "other", signature: signWebhookBody(secret, body) })).toEqual({
      isValid: false,
      reason: "mismatch",
    });
  });
});
