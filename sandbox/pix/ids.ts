import { createHash, randomBytes } from "node:crypto";

const alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Random letters and digits (rejection sampling keeps the distribution uniform). */
function randomAlphanumeric(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += alphanumerics[byte % 62];
    }
  }
  return out;
}

/** Pix rule for immediate charges: 26 to 35 letters and digits; the sandbox uses 32. */
export function newTxid(): string {
  return randomAlphanumeric(32);
}

// The sandbox's own (fictitious) ISPB, the participant code inside end-to-end ids.
const sandboxIspb = "99999999";

function endToEndTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace(/[-T:]/g, "");
}

/** End-to-end id of a received Pix ("E") or of a refund ("D"): prefix + ISPB + yyyyMMddHHmm + 11 characters = 32. */
export function newEndToEndId(prefix: "E" | "D", ms: number): string {
  return `${prefix}${sandboxIspb}${endToEndTimestamp(ms)}${randomAlphanumeric(11)}`;
}

/** A stable UUID for a certificate CN: the refund's tenantId. */
export function tenantIdOf(clientId: string): string {
  const hex = createHash("sha256").update(`tenant:${clientId}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
