import { createHmac, type KeyObject, timingSafeEqual } from "node:crypto";

// Spec 6.3: lowercase hex HMAC-SHA256 of the exact raw body. The timestamp and delivery id headers are not signed.

export type TSignatureCheck =
  | { isValid: true }
  | { isValid: false; reason: "missing" | "wrong_length" | "not_hex" | "mismatch" };

const signatureHexLength = 64;

export function signWebhookBody(secret: string, rawBody: Uint8Array | string): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

// A malformed header is a plain "invalid", never an exception; the HMAC is compared in constant time.
export function checkWebhookSignature(
  secret: string | KeyObject,
  rawBody: Uint8Array,
  header: string | null | undefined,
): TSignatureCheck {
  const signature = header?.trim();
  if (!signature) return { isValid: false, reason: "missing" };
  if (signature.length !== signatureHexLength) return { isValid: false, reason: "wrong_length" };
  if (!/^[0-9a-fA-F]+$/.test(signature)) return { isValid: false, reason: "not_hex" };
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const isValid = timingSafeEqual(expected, Buffer.from(signature, "hex"));
  return isValid ? { isValid } : { isValid, reason: "mismatch" };
}

const timestampToleranceSeconds = 5 * 60;

export type TTimestampCheck =
  | { isFresh: true }
  | { isFresh: false; reason: "missing" | "malformed" | "too_old" | "in_the_future" };

// Seconds since the epoch; more than 5 minutes from `now` either way is refused.
export function checkWebhookTimestamp(header: string | null | undefined, now: Date): TTimestampCheck {
  const value = header?.trim();
  if (!value) return { isFresh: false, reason: "missing" };
  if (!/^\d{1,12}$/.test(value)) return { isFresh: false, reason: "malformed" };
  const skew = Number(value) - Math.floor(now.getTime() / 1000);
  if (skew < -timestampToleranceSeconds) return { isFresh: false, reason: "too_old" };
  if (skew > timestampToleranceSeconds) return { isFresh: false, reason: "in_the_future" };
  return { isFresh: true };
}
