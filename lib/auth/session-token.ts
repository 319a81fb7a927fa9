import "server-only";
import { createDecipheriv, createSecretKey, hkdfSync, type KeyObject } from "node:crypto";

// next-auth 4's session cookie is a compact JWE, "dir" + A256GCM, under a key derived from the secret with HKDF.
// next-auth/jwt `decode` derives that key again on every call and, like jose's WebCrypto, goes through libuv's
// thread pool: on a busy machine each hop waits for a pool thread, and it was the largest part of the session
// check. Here the key is derived once per secret and the token decrypted in place with node:crypto (tested against
// next-auth's own encode in session-token.test.ts). The tag authenticates header and payload; exp and nbf are
// checked as next-auth does (15 s of clock tolerance).

export type TSessionTokenPayload = Record<string, unknown>;

const clockToleranceSeconds = 15;
let derived: { secret: string; key: KeyObject } | undefined;

function encryptionKey(secret: string): KeyObject {
  if (derived?.secret !== secret) {
    // next-auth/jwt getDerivedEncryptionKey(secret, salt = ""); a KeyObject, not bytes, so no call converts it again.
    const bytes = Buffer.from(hkdfSync("sha256", secret, "", "NextAuth.js Generated Encryption Key", 32));
    derived = { secret, key: createSecretKey(bytes) };
  }
  return derived.key;
}

function parseJsonObject(bytes: Buffer): TSessionTokenPayload | null {
  const value: unknown = JSON.parse(bytes.toString("utf8"));
  return value && typeof value === "object" && !Array.isArray(value) ? (value as TSessionTokenPayload) : null;
}

function decrypt(token: string, key: KeyObject): TSessionTokenPayload | null {
  const parts = token.split(".");
  if (parts.length !== 5) return null;
  const [protectedHeader, encryptedKey, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  const header = parseJsonObject(Buffer.from(protectedHeader, "base64url"));
  // Anything else (compression, critical extensions, another algorithm) is not a token next-auth wrote.
  if (!header || Object.keys(header).sort().join() !== "alg,enc" || header.alg !== "dir" || header.enc !== "A256GCM")
    return null;
  const ivBytes = Buffer.from(iv, "base64url");
  const tagBytes = Buffer.from(tag, "base64url");
  if (encryptedKey !== "" || ivBytes.length !== 12 || tagBytes.length !== 16) return null;
  const decipher = createDecipheriv("aes-256-gcm", key, ivBytes, { authTagLength: 16 });
  decipher.setAAD(Buffer.from(protectedHeader, "ascii"));
  decipher.setAuthTag(tagBytes);
  return parseJsonObject(Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]));
}

function isCurrent(payload: TSessionTokenPayload, nowSeconds: number): boolean {
  const { exp, nbf } = payload;
  if (typeof exp !== "number" || exp <= nowSeconds - clockToleranceSeconds) return false;
  return nbf === undefined || (typeof nbf === "number" && nbf <= nowSeconds + clockToleranceSeconds);
}

/** next-auth/jwt `decode` without its per-call cost: null for a token that is altered, expired or not ours. */
export function decodeSessionToken(token: string, secret: string): TSessionTokenPayload | null {
  try {
    const payload = decrypt(token, encryptionKey(secret));
    return payload && isCurrent(payload, Math.floor(Date.now() / 1000)) ? payload : null;
  } catch {
    // A failed tag, bad base64 or JSON: not a token this secret wrote.
    return null;
  }
}
