import { hash, randomBytes } from "node:crypto";

// The 32-byte random secret cannot be guessed, so a plain SHA-256 is a safe lookup hash (no password stretching).

const posApiKeyScheme = "pos_live";
const prefixBytes = 6;
const secretBytes = 32;
const keyPattern = /^pos_live_([A-Za-z0-9_-]{8})_([A-Za-z0-9_-]{43})$/;

export type TGeneratedPosApiKey = { key: string; prefix: string };

export function generatePosApiKey(): TGeneratedPosApiKey {
  const prefix = randomBytes(prefixBytes).toString("base64url");
  const secret = randomBytes(secretBytes).toString("base64url");
  return { key: `${posApiKeyScheme}_${prefix}_${secret}`, prefix };
}

export function hashPosApiKey(key: string): string {
  return hash("sha256", key, "hex");
}

export function posApiKeyPrefix(key: string): string | null {
  return keyPattern.exec(key)?.[1] ?? null;
}

export function isPosApiKeyFormat(key: string): boolean {
  return keyPattern.test(key);
}

export function parseBearer(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
