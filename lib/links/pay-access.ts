import "server-only";
import { hkdfSync } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { cookies } from "next/headers";
import { serverEnv } from "@/lib/config/server-env";

// The key is derived from AUTH_SECRET with a label of its own, so a pay-page token never passes for a session one.

const payAccessCookieName = "pay_access";
const accessTtlSeconds = 30 * 60;
const audience = "pay-page";

let cachedKey: { secret: string; key: Uint8Array } | undefined;

function accessKey(): Uint8Array {
  const secret = serverEnv.AUTH_SECRET;
  if (cachedKey?.secret !== secret) {
    cachedKey = {
      secret,
      key: new Uint8Array(hkdfSync("sha256", secret, "", "payments-dashboard pay-page access v1", 32)),
    };
  }
  return cachedKey.key;
}

export function payPagePath(linkPaymentUuid: string): string {
  return `/pay/${linkPaymentUuid}`;
}

export async function createPayAccessToken(linkPaymentUuid: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(linkPaymentUuid)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${accessTtlSeconds}s`)
    .sign(accessKey());
}

export async function isPayAccessTokenFor(token: string | undefined, linkPaymentUuid: string): Promise<boolean> {
  if (!token) return false;
  try {
    const { payload } = await jwtVerify(token, accessKey(), { audience, algorithms: ["HS256"] });
    return payload.sub === linkPaymentUuid;
  } catch {
    return false;
  }
}

export async function grantPayAccess(linkPaymentUuid: string): Promise<void> {
  (await cookies()).set(payAccessCookieName, await createPayAccessToken(linkPaymentUuid), {
    httpOnly: true,
    sameSite: "strict",
    secure: serverEnv.APP_URL.startsWith("https://"),
    path: payPagePath(linkPaymentUuid),
    maxAge: accessTtlSeconds,
  });
}

export async function hasPayAccess(linkPaymentUuid: string): Promise<boolean> {
  return isPayAccessTokenFor((await cookies()).get(payAccessCookieName)?.value, linkPaymentUuid);
}
