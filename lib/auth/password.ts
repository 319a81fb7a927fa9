import { randomBytes, type ScryptOptions, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";

// OWASP's scrypt cost; the hash names its parameters, so the cost can rise without breaking existing hashes.
const defaultParams = { N: 2 ** 17, r: 8, p: 1 } as const;
const saltBytes = 16;
const keyBytes = 64;

type ScryptParams = { N: number; r: number; p: number };

// Each hash holds 128 MiB and one of libuv's 4 threads for a fraction of a second; capping them keeps a burst of
// sign-ins from exhausting memory and starving file and DNS work that shares the pool. The rest wait their turn.
export const maxConcurrentHashes = 2;
let activeHashes = 0;
const waitingHashes: Array<() => void> = [];

export function getPasswordHashLoad(): { active: number; waiting: number } {
  return { active: activeHashes, waiting: waitingHashes.length };
}

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (activeHashes < maxConcurrentHashes) activeHashes += 1;
  // The releasing hash hands its slot over directly, so the count never dips and lets a newcomer cut in.
  else await new Promise<void>((resolve) => waitingHashes.push(resolve));
  try {
    return await work();
  } finally {
    const next = waitingHashes.shift();
    if (next) next();
    else activeHashes -= 1;
  }
}

function deriveKey(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is below OWASP's cost.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return withHashSlot(
    () =>
      new Promise((resolve, reject) => {
        scryptCallback(password.normalize("NFKC"), salt, keyBytes, options, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
}

export async function hashPassword(password: string, params: ScryptParams = defaultParams): Promise<string> {
  const salt = randomBytes(saltBytes);
  const key = await deriveKey(password, salt, params);
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

function parseHash(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !key) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(params).every((value) => Number.isSafeInteger(value) && value > 0)) return null;
  return { params, salt: Buffer.from(salt, "base64url"), key: Buffer.from(key, "base64url") };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || parsed.key.length !== keyBytes) return false;
  const key = await deriveKey(password, parsed.salt, parsed.params);
  return timingSafeEqual(key, parsed.key);
}

// Matches no password (not a hash this module writes): set by an admin's reset until the user picks a new one.
export const unusablePasswordHash = "reset:pending";

// Matches no password either: an account made at its first single sign-on, or accepted through it.
export const noPasswordHash = "sso:none";

let dummyHash: Promise<string> | undefined;

// As slow as a real check, so an unknown email answers no faster than a wrong password.
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString("base64url"));
  await verifyPassword(password, await dummyHash);
  return false;
}

const oneTimeAlphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function generateOneTimePassword(length = 16): string {
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % oneTimeAlphabet.length);
  let password = "";
  while (password.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && password.length < length) password += oneTimeAlphabet[byte % oneTimeAlphabet.length];
    }
  }
  return password;
}
