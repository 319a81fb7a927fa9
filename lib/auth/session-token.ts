import "server-only";
import { createDecipheriv, createSecretKey, hkdfSync, type KeyObject } from "node:crypto";

// next-auth's `decode` derives the JWE key (HKDF) on every call through libuv's pool, the largest part of the session
// check on a busy machine: here it is derived once per secret. Tested against next-auth's encode; exp, nbf as it does.

export type TSessionTokenPayload = Record<string, unknown>;

const clockToleranceSeconds = 15;
let derived: { secret: string; key: KeyObject } | undefined;

function encryptionKey(secret: string): KeyObject {
  if (derived?.secret !== secret) {
    // next-auth/jwt getDerivedEncryptionKey(secret, salt = ""); a KeyObject, so no call converts it again.
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

export function decodeSessionToken(token: string, secret: string): TSessionTokenPayload | null {
  try {
    const payload = decrypt(token, encryptionKey(secret));
    return payload && isCurrent(payload, Math.floor(Date.now() / 1000)) ? payload : null;
  } catch {
    return null;
  }
}
