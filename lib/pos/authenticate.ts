import "server-only";
import { runSql } from "@/lib/db/sql";
import { log } from "@/lib/log";
import { hashPosApiKey, isPosApiKeyFormat, parseBearer } from "./api-key-format";
import { PosApiError, posError, type TPosLogContext } from "./errors";
import { posRateLimiter } from "./rate-limit";

// Validity is read on every request (one indexed read): a revoked or expired key fails on the very next call.

export type TPosSellerTokenVerifier = {
  algorithm: string | null;
  secretCiphertext: string | null;
  publicKey: string | null;
  jwksUrl: string | null;
};

export type TPosCaller = {
  keyId: string;
  keyHash: string;
  tenantId: string;
  prefix: string;
  verifier: TPosSellerTokenVerifier;
};

export const lastUsedResolutionMs = 60_000;

type TKeyRow = {
  id: string;
  tenantId: string;
  prefix: string;
  isRevoked: boolean;
  isExpired: boolean;
  isLastUseStale: boolean;
  sellerTokenAlgorithm: string | null;
  sellerTokenSecretCiphertext: string | null;
  sellerTokenPublicKey: string | null;
  sellerTokenJwksUrl: string | null;
};

// Raw SQL (lib/db/sql.ts): every /v1 request runs it. Validity is computed against the request's clock.
const keyQuery = `
  SELECT "id"::text AS "id", "tenantId"::text AS "tenantId", "prefix",
    ("revokedAt" IS NOT NULL AND "revokedAt" <= ($2::timestamptz AT TIME ZONE 'UTC')) AS "isRevoked",
    ("expiresAt" IS NOT NULL AND "expiresAt" <= ($2::timestamptz AT TIME ZONE 'UTC')) AS "isExpired",
    ("lastUsedAt" IS NULL OR "lastUsedAt" < ($3::timestamptz AT TIME ZONE 'UTC')) AS "isLastUseStale",
    "sellerTokenAlgorithm", "sellerTokenSecretCiphertext", "sellerTokenPublicKey", "sellerTokenJwksUrl"
  FROM "PosApiKey" WHERE "keyHash" = $1::text`;

export async function authenticatePosRequest(
  request: Request,
  context: TPosLogContext = {},
  now = new Date(),
): Promise<TPosCaller> {
  const key = parseBearer(request.headers.get("authorization"));
  if (!key) throw posError.unauthorized("missing_key");
  if (!isPosApiKeyFormat(key)) throw posError.unauthorized("malformed_key");
  const keyHash = hashPosApiKey(key);
  const [row] = await runSql<TKeyRow>(keyQuery, [
    keyHash,
    now.toISOString(),
    new Date(now.getTime() - lastUsedResolutionMs).toISOString(),
  ]);
  if (!row) throw posError.unauthorized("unknown_key");
  rememberKeyId(keyHash, row.id);
  context.keyPrefix = row.prefix;
  context.tenantId = row.tenantId;
  if (row.isRevoked) throw posError.unauthorized("revoked_key");
  if (row.isExpired) throw posError.unauthorized("expired_key");

  const retryAfter = posRateLimiter.take(row.id, now.getTime());
  if (retryAfter > 0) {
    throw new PosApiError(429, "rate_limited", "too many requests for this API key", {
      "retry-after": String(retryAfter),
    });
  }

  if (row.isLastUseStale) await touchLastUsed(row.id, now);
  return {
    keyId: row.id,
    keyHash,
    tenantId: row.tenantId,
    prefix: row.prefix,
    verifier: {
      algorithm: row.sellerTokenAlgorithm,
      secretCiphertext: row.sellerTokenSecretCiphertext,
      publicKey: row.sellerTokenPublicKey,
      jwksUrl: row.sellerTokenJwksUrl,
    },
  };
}

// A key's id never changes for its hash, so it is remembered (validity is not, it is verified in the report's statement).
const knownKeyIds = new Map<string, string>();
const maxKnownKeys = 10_000;

function rememberKeyId(keyHash: string, keyId: string): void {
  if (knownKeyIds.size >= maxKnownKeys) knownKeyIds.clear();
  knownKeyIds.set(keyHash, keyId);
}

export function forgetPosKey(keyHash: string): void {
  knownKeyIds.delete(keyHash);
}

export type TKnownPosKey = { keyHash: string; keyId: string };

// Null sends the request to authenticatePosRequest, which gives every refusal (401, 429) its own answer.
export function takeKnownPosKey(request: Request, now = new Date()): TKnownPosKey | null {
  const key = parseBearer(request.headers.get("authorization"));
  if (!key || !isPosApiKeyFormat(key)) return null;
  const keyHash = hashPosApiKey(key);
  const keyId = knownKeyIds.get(keyHash);
  if (!keyId || posRateLimiter.take(keyId, now.getTime()) > 0) return null;
  return { keyHash, keyId };
}

// At most about once a minute per key, and the WHERE keeps parallel requests and instances from writing it again.
async function touchLastUsed(keyId: string, now: Date): Promise<void> {
  try {
    await runSql(
      `UPDATE "PosApiKey" SET "lastUsedAt" = ($2::timestamptz AT TIME ZONE 'UTC')
       WHERE "id" = $1::uuid AND ("lastUsedAt" IS NULL OR "lastUsedAt" < ($3::timestamptz AT TIME ZONE 'UTC'))
       RETURNING 1 AS "touched"`,
      [keyId, now.toISOString(), new Date(now.getTime() - lastUsedResolutionMs).toISOString()],
    );
  } catch (error) {
    // Bookkeeping only: a failed write loses one timestamp, never the request.
    log.warn({ err: error, event: "pos.last_used_failed" }, "could not record the API key's last use");
  }
}
