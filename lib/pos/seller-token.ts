import "server-only";
import { errors, importSPKI, type JWTPayload, type JWTVerifyGetKey, jwtVerify, type KeyObject } from "jose";
import { SecretBoxError } from "@/lib/crypto/secret-box";
import type { TPosSellerTokenVerifier } from "./authenticate";
import { PosApiError, posError } from "./errors";
import { JwksUnavailableError, pinnedJwks } from "./jwks";
import { openSellerTokenSecret } from "./secrets";

// Required: sub, exp, jti (single use, activation.ts), aud (posSellerTokenAudienceFor); iat, if any, not in the future.

export const posSellerTokenAudience = "payments-dashboard-pos";

// A public key or JWKS URL may be configured on two tenants' keys: the audience keeps one tenant's token from
// activating sellers on the other.
export const posSellerTokenAudienceFor = (tenantId: string) => `${posSellerTokenAudience}:${tenantId}`;

const asymmetricAlgorithms = ["RS256", "ES256"] as const;
const clockToleranceSeconds = 30;
// A seller token is meant to be used at once: one valid for longer than a day is refused.
const maxLifetimeSeconds = 24 * 60 * 60;

export type TSellerTokenClaims = { sub: string; jti: string; expiresAt: Date };

const invalid = (reason: string, message: string) =>
  posError.business(`token_${reason}`, `invalid seller token: ${message}`);

// Imported keys and JWKS sets are key material, not validity: caching them is safe.
const publicKeys = new Map<string, Promise<KeyObject | CryptoKey>>();
const jwksSets = new Map<string, JWTVerifyGetKey>();

function publicKeyOf(pem: string, algorithm: string): Promise<KeyObject | CryptoKey> {
  const cacheKey = `${algorithm}:${pem}`;
  let key = publicKeys.get(cacheKey);
  if (!key) {
    key = importSPKI(pem, algorithm);
    key.catch(() => publicKeys.delete(cacheKey));
    if (publicKeys.size > 1000) publicKeys.clear();
    publicKeys.set(cacheKey, key);
  }
  return key;
}

function jwksOf(url: string): JWTVerifyGetKey {
  let set = jwksSets.get(url);
  if (!set) {
    set = pinnedJwks(url);
    if (jwksSets.size > 1000) jwksSets.clear();
    jwksSets.set(url, set);
  }
  return set;
}

async function verificationKey(
  verifier: TPosSellerTokenVerifier,
  apiKeyId: string,
): Promise<{ key: Uint8Array | KeyObject | CryptoKey | JWTVerifyGetKey; algorithms: string[] }> {
  const algorithm = verifier.algorithm;
  if (algorithm === "HS256" && verifier.secretCiphertext) {
    try {
      return {
        key: new TextEncoder().encode(openSellerTokenSecret(verifier.secretCiphertext, apiKeyId)),
        algorithms: ["HS256"],
      };
    } catch (error) {
      if (error instanceof SecretBoxError) throw new PosApiError(500, "verifier_unreadable", "internal error");
      throw error;
    }
  }
  const asymmetric = asymmetricAlgorithms.find((name) => name === algorithm);
  if (verifier.jwksUrl)
    return { key: jwksOf(verifier.jwksUrl), algorithms: asymmetric ? [asymmetric] : [...asymmetricAlgorithms] };
  if (asymmetric && verifier.publicKey) {
    try {
      return { key: await publicKeyOf(verifier.publicKey, asymmetric), algorithms: [asymmetric] };
    } catch {
      throw posError.business("verifier_invalid", "seller token verification is misconfigured for this API key");
    }
  }
  throw posError.business("verifier_missing", "seller token verification is not configured for this API key");
}

function describeClaimFailure(error: errors.JWTClaimValidationFailed): PosApiError {
  if (error.reason === "missing") return invalid(`missing_${error.claim}`, `missing claim ${error.claim}`);
  if (error.claim === "aud") return invalid("audience", "wrong audience (expected payments-dashboard-pos:<tenantId>)");
  if (error.claim === "nbf") return invalid("not_yet_valid", "not valid yet (nbf)");
  if (error.claim === "iat") return invalid("iat", "issued in the future (iat)");
  return invalid(`claim_${error.claim}`, `claim ${error.claim} is invalid`);
}

// The bare name stays valid for HS256 only: that secret is generated for this tenant alone, so it binds the token.
function acceptedAudiences(tenantId: string, algorithms: string[]): string[] {
  const bound = posSellerTokenAudienceFor(tenantId);
  return algorithms.length === 1 && algorithms[0] === "HS256" ? [bound, posSellerTokenAudience] : [bound];
}

export async function verifySellerToken(
  token: string,
  verifier: TPosSellerTokenVerifier,
  binding: { apiKeyId: string; tenantId: string },
  now = new Date(),
): Promise<TSellerTokenClaims> {
  const { key, algorithms } = await verificationKey(verifier, binding.apiKeyId);
  let payload: JWTPayload;
  try {
    const options = {
      algorithms,
      audience: acceptedAudiences(binding.tenantId, algorithms),
      requiredClaims: ["sub", "exp", "jti", "aud"],
      clockTolerance: clockToleranceSeconds,
      currentDate: now,
    };
    ({ payload } =
      typeof key === "function"
        ? await jwtVerify(token, key as JWTVerifyGetKey, options)
        : await jwtVerify(token, key as Uint8Array, options));
  } catch (error) {
    if (error instanceof PosApiError) throw error;
    if (error instanceof errors.JWTExpired) throw invalid("expired", "expired");
    if (error instanceof errors.JWTClaimValidationFailed) throw describeClaimFailure(error);
    if (error instanceof errors.JWSSignatureVerificationFailed) throw invalid("signature", "bad signature");
    if (error instanceof errors.JOSEAlgNotAllowed) throw invalid("algorithm", "algorithm not allowed for this API key");
    if (error instanceof errors.JWKSNoMatchingKey) throw invalid("signature", "no matching key in the JWKS (kid)");
    // One answer whatever the cause, so it reveals nothing about what this server can reach.
    if (error instanceof JwksUnavailableError)
      throw new PosApiError(503, "jwks_unavailable", "seller token keys (JWKS) could not be fetched; try again");
    if (error instanceof errors.JWTInvalid || error instanceof errors.JWSInvalid)
      throw invalid("malformed", "malformed token");
    if (error instanceof errors.JOSEError) throw invalid("rejected", error.code);
    throw error;
  }
  const { sub, jti, exp, iat } = payload;
  // jose checks iat only against a maximum age; a token "issued" later than now (beyond the clock skew) is refused.
  if (typeof iat === "number" && iat - now.getTime() / 1000 > clockToleranceSeconds)
    throw invalid("iat", "issued in the future (iat)");
  if (typeof sub !== "string" || sub.trim() === "" || sub.length > 200)
    throw invalid("claim_sub", "claim sub is invalid");
  if (typeof jti !== "string" || jti.trim() === "" || jti.length > 200)
    throw invalid("claim_jti", "claim jti is invalid");
  if (typeof exp !== "number") throw invalid("missing_exp", "missing claim exp");
  if (exp - now.getTime() / 1000 > maxLifetimeSeconds) throw invalid("lifetime", "exp is more than 24 hours away");
  return { sub, jti, expiresAt: new Date(exp * 1000) };
}
