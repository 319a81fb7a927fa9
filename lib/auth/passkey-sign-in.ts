import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { isLocalSignInAllowed } from "@/lib/sso/settings";
import { checkPasskey, recordSignInFailure, type TAuthenticationResponse } from "./passkey-assertion";
import { claimPasswordAttempt } from "./password-attempts";
import type { TRequestContext } from "./request-context";
import { completeSignIn, refuseLocalSignIn, type TSignInResult } from "./sign-in";

// Both factors at once: something held (the credential) and the user verified on the device. Counted by the same
// limits as a password, so a stolen passkey is guessed at no faster than a password.
export async function signInWithPasskey(
  response: TAuthenticationResponse,
  context: TRequestContext,
  now = new Date(),
): Promise<TSignInResult> {
  const audit = { ip: context.ip, userAgent: context.userAgent, resourceType: "user" } as const;
  const passkey = await db.passkey.findUnique({ where: { credentialId: response.id }, include: { user: true } });
  const user = passkey?.user ?? null;

  const attempt = await claimPasswordAttempt(user?.email ?? null, context.ip, now);
  if (attempt.status === "rate-limited") {
    const { scope, retryAfterSeconds } = attempt;
    await recordAudit({
      ...audit,
      actor: user ? { id: user.id, email: user.email } : null,
      action: "auth.sign_in_rate_limited",
      metadata: { scope, retryAfterSeconds, during: "passkey" },
    });
    return { status: "rate-limited", retryAfterSeconds };
  }

  if (!passkey || !user) {
    await recordAudit({
      ...audit,
      actor: null,
      action: "auth.sign_in_failed",
      metadata: { reason: "unknown_passkey" },
    });
    return { status: "invalid" };
  }
  const failure = await checkPasskey(passkey, user, response, audit, now);
  if (failure) return failure;
  if (!user.isActive) return recordSignInFailure(audit, user, { reason: "inactive", passkeyId: passkey.id });
  if (!(await isLocalSignInAllowed(user.email, user))) return refuseLocalSignIn(user.email, user, context);
  return completeSignIn(user, context, now, { method: "passkey", passkeyId: passkey.id });
}
