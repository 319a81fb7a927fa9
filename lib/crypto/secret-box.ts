import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

// AES-256-GCM box `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url; keyId a key fingerprint, so keys can be added).
// `purpose` (e.g. `webhook:<id>`, `totp:<userId>`) is associated data: a box copied onto another row does not open.

const version = "v1";
const ivBytes = 12;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

function keyIdOf(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

function associatedData(keyId: string, purpose: string): Buffer {
  return Buffer.from(`${version}.${keyId}.${purpose}`);
}

export function sealSecret(secret: string, purpose: string, key: Buffer): string {
  const keyId = keyIdOf(key);
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(associatedData(keyId, purpose));
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [version, keyId, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

export function openSecret(box: string, purpose: string, key: Buffer): string {
  const [boxVersion, keyId, iv, tag, ciphertext, ...rest] = box.split(".");
  if (boxVersion !== version || !keyId || !iv || !tag || ciphertext === undefined || rest.length > 0) {
    throw new SecretBoxError("not a secret box");
  }
  if (keyId !== keyIdOf(key))
    throw new SecretBoxError(`sealed with another key (${keyId}); WEBHOOK_SECRET_KEY changed`);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(associatedData(keyId, purpose));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretBoxError(`the box does not open: altered, or sealed for another ${purpose.split(":")[0]}`);
  }
}
