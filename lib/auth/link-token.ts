import "server-only";
import { createHash, randomBytes } from "node:crypto";

// A mailed link's secret: 256 random bits, so a fast sha256 is enough to store it (as for recovery codes).
export function createLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export type TLinkTokenState = "valid" | "expired" | "invalid";
