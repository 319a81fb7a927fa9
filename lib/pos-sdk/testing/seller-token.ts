import { SignJWT } from "jose";

// Not part of the SDK (devices never sign): for tests, the contract suite and `npm run pos:seller-token`.

export type TSellerTokenSigning = { secret: string; audience: string; issuer?: string };

export async function signSellerToken(
  signing: TSellerTokenSigning,
  sellerReference: string,
  options: { expiresInSeconds?: number; jti?: string; audience?: string; now?: Date } = {},
): Promise<string> {
  const issuedAt = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const jwt = new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(sellerReference)
    .setAudience(options.audience ?? signing.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + (options.expiresInSeconds ?? 300))
    .setJti(options.jti ?? globalThis.crypto.randomUUID());
  if (signing.issuer) jwt.setIssuer(signing.issuer);
  return jwt.sign(new TextEncoder().encode(signing.secret));
}
