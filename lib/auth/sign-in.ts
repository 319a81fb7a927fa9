import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { isLocalSignInAllowed } from "@/lib/sso/settings";
import {
  recordSignInFailure,
  type TAuthenticationResponse,
  type TSignInAudit,
  verifyPasskeyAsSecondFactor,
} from "./passkey-assertion";
import { hasPasskeys } from "./passkeys";
import { verifyDummyPassword, verifyPassword } from "./password";
import { claimPasswordAttempt, givePasswordAttemptBack, settlePasswordAttempt } from "./password-attempts";
import type { TRequestContext } from "./request-context";
import type { TSecondFactorMethod } from "./sign-in-error";
import { consumeSecondFactor, countUnusedRecoveryCodes } from "./two-factor";

type TSignedInUser = {
  id: string;
  email: string;
  name: string;
  locale: string;
  theme: string;
  sessionVersion: number;
};

export type TSignInResult =
  | { status: "signed-in"; user: TSignedInUser }
  | { status: "invalid" }
  | { status: "two-factor-required"; methods: TSecondFactorMethod[] }
  | { status: "passkey-counter-regressed" }
  | { status: "sso-required" }
  | { status: "rate-limited"; retryAfterSeconds: number };

export async function signInWithPassword(
  credentials: { email: string; password: string; code?: string; passkey?: TAuthenticationResponse },
  context: TRequestContext,
  now = new Date(),
): Promise<TSignInResult> {
  const email = credentials.email.trim().toLowerCase();
  const audit = { ip: context.ip, userAgent: context.userAgent, resourceType: "user" } as const;

  const attempt = await claimPasswordAttempt(email, context.ip, now);
  if (attempt.status === "rate-limited") {
    const { scope, retryAfterSeconds } = attempt;
    await recordAudit({
      ...audit,
      actor: { id: null, email },
      action: "auth.sign_in_rate_limited",
      metadata: { scope, retryAfterSeconds },
    });
    return { status: "rate-limited", retryAfterSeconds };
  }

  const user = await db.user.findUnique({ where: { email } });
  if (!(await isLocalSignInAllowed(email, user))) return refuseLocalSignIn(email, user, context);
  const isValid = user
    ? await verifyPassword(credentials.password, user.passwordHash)
    : await verifyDummyPassword(credentials.password);

  if (!user || !isValid || !user.isActive) {
    const reason = !user ? "unknown_email" : !isValid ? "wrong_password" : "inactive";
    await recordAudit({
      ...audit,
      actor: { id: user?.id ?? null, email },
      resourceId: user?.id,
      action: "auth.sign_in_failed",
      metadata: { reason },
    });
    return { status: "invalid" };
  }

  const methods: TSecondFactorMethod[] = [
    ...(user.totpEnabledAt ? (["totp"] as const) : []),
    ...((await hasPasskeys(user.id)) ? (["passkey"] as const) : []),
  ];
  if (methods.length > 0) {
    if (!credentials.code && !credentials.passkey) {
      await givePasswordAttemptBack(email, context.ip);
      return { status: "two-factor-required", methods };
    }
    const failure = credentials.passkey
      ? await verifyPasskeyAsSecondFactor(user, credentials.passkey, audit, now)
      : await verifyCodeAsSecondFactor(user, credentials.code ?? "", audit, now);
    if (failure) return failure;
  }

  return completeSignIn(user, context, now);
}

// Decided by the e-mail's domain before any hash runs, so it tells nothing about the account.
export async function refuseLocalSignIn(
  email: string,
  user: { id: string } | null,
  context: TRequestContext,
): Promise<TSignInResult> {
  await givePasswordAttemptBack(email, context.ip);
  await recordAudit({
    actor: { id: user?.id ?? null, email },
    resourceType: "user",
    resourceId: user?.id,
    ip: context.ip,
    userAgent: context.userAgent,
    action: "auth.sign_in_failed",
    metadata: { reason: "sso_required" },
  });
  return { status: "sso-required" };
}

async function verifyCodeAsSecondFactor(
  user: Parameters<typeof consumeSecondFactor>[0],
  code: string,
  audit: TSignInAudit,
  now: Date,
): Promise<TSignInResult | null> {
  const factor = await consumeSecondFactor(user, code, now);
  if (!factor) return recordSignInFailure(audit, user, { reason: "wrong_two_factor_code" });
  if (factor === "recovery-code") {
    const remaining = await countUnusedRecoveryCodes(user.id);
    await recordAudit({
      ...audit,
      actor: { id: user.id, email: user.email },
      resourceId: user.id,
      action: "auth.recovery_code_used",
      metadata: { remaining },
    });
  }
  return null;
}

// Every way in ends here: the limits cleared, the sign-in stamped and audited (`method` tells them apart).
export async function completeSignIn(
  user: TSignedInUser,
  context: TRequestContext,
  now: Date,
  metadata?: { method: "passkey"; passkeyId: string } | { method: "sso" },
): Promise<TSignInResult> {
  const email = user.email;
  const audit = { ip: context.ip, userAgent: context.userAgent, resourceType: "user" } as const;
  await settlePasswordAttempt(email, context.ip, true);
  await db.user.update({ where: { id: user.id }, data: { lastSignInAt: now } });
  await recordAudit({ ...audit, actor: { id: user.id, email }, resourceId: user.id, action: "auth.sign_in", metadata });
  return {
    status: "signed-in",
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      locale: user.locale,
      theme: user.theme,
      sessionVersion: user.sessionVersion,
    },
  };
}
