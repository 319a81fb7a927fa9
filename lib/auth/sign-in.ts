import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { verifyDummyPassword, verifyPassword } from "./password";
import { claimSpacedAttempt, refundSpacedAttempt, resetRateLimit } from "./rate-limit";
import { type TAttemptSpacing, toRetrySeconds } from "./rate-limit-window";
import type { TRequestContext } from "./request-context";
import type { TRole } from "./session-user";
import { consumeSecondFactor, countUnusedRecoveryCodes } from "./two-factor";

// Per account stops guessing one password; per IP stops spraying. The IP allows more free failures (shared offices)
// but its delay grows to an hour vs 5 minutes per account, so the owner is never locked out.
export const signInSpacing = {
  account: { freeAttempts: 5, maxDelayMs: 5 * 60_000, forgetAfterMs: 24 * 60 * 60_000 },
  ip: { freeAttempts: 10, maxDelayMs: 60 * 60_000, forgetAfterMs: 24 * 60 * 60_000 },
} satisfies Record<string, TAttemptSpacing>;

export type TSignedInUser = {
  id: string;
  email: string;
  name: string;
  role: TRole;
  locale: string;
  theme: string;
  sessionVersion: number;
};

export type TSignInResult =
  | { status: "signed-in"; user: TSignedInUser }
  | { status: "invalid" }
  // The password was right, but the account has two-factor sign-in and no code came with it.
  | { status: "two-factor-required" }
  | { status: "rate-limited"; retryAfterSeconds: number };

export const accountLimitKey = (email: string) => `sign-in:account:${email}`;
export const ipLimitKey = (ip: string) => `sign-in:ip:${ip}`;

export type TPasswordAttempt =
  | { status: "allowed" }
  | { status: "rate-limited"; scope: "account" | "ip"; retryAfterSeconds: number };

// Every password or code check is claimed before the hash runs, so parallel guesses each count; a success gives its
// claims back (settlePasswordAttempt), so only failures count.
export async function claimPasswordAttempt(
  email: string,
  ip: string | null,
  now = new Date(),
): Promise<TPasswordAttempt> {
  const limits = [
    ...(ip ? [{ scope: "ip" as const, key: ipLimitKey(ip), spacing: signInSpacing.ip }] : []),
    { scope: "account" as const, key: accountLimitKey(email), spacing: signInSpacing.account },
  ];
  // Sequential (the embedded database runs one statement at a time), IP first, so a waiting address spares the account.
  for (const { scope, key, spacing } of limits) {
    const claim = await claimSpacedAttempt(key, spacing, now);
    if (claim.status === "delayed") {
      return { status: "rate-limited", scope, retryAfterSeconds: toRetrySeconds(claim.retryAfterMs) };
    }
  }
  return { status: "allowed" };
}

// A right password awaiting the code step is no guess: both claims go back, earlier wrong codes stay counted.
export async function givePasswordAttemptBack(email: string, ip: string | null): Promise<void> {
  await refundSpacedAttempt(accountLimitKey(email), signInSpacing.account);
  if (ip) await refundSpacedAttempt(ipLimitKey(ip), signInSpacing.ip);
}

export async function settlePasswordAttempt(email: string, ip: string | null, isSuccess: boolean): Promise<void> {
  if (!isSuccess) return;
  await resetRateLimit(accountLimitKey(email));
  if (ip) await refundSpacedAttempt(ipLimitKey(ip), signInSpacing.ip);
}

export async function signInWithPassword(
  credentials: { email: string; password: string; code?: string },
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

  if (user.totpEnabledAt) {
    if (!credentials.code) {
      await givePasswordAttemptBack(email, context.ip);
      return { status: "two-factor-required" };
    }
    const factor = await consumeSecondFactor(user, credentials.code, now);
    if (!factor) {
      await recordAudit({
        ...audit,
        actor: { id: user.id, email },
        resourceId: user.id,
        action: "auth.sign_in_failed",
        metadata: { reason: "wrong_two_factor_code" },
      });
      return { status: "invalid" };
    }
    if (factor === "recovery-code") {
      const remaining = await countUnusedRecoveryCodes(user.id);
      await recordAudit({
        ...audit,
        actor: { id: user.id, email },
        resourceId: user.id,
        action: "auth.recovery_code_used",
        metadata: { remaining },
      });
    }
  }

  await settlePasswordAttempt(email, context.ip, true);
  await db.user.update({ where: { id: user.id }, data: { lastSignInAt: now } });
  await recordAudit({ ...audit, actor: { id: user.id, email }, resourceId: user.id, action: "auth.sign_in" });
  return {
    status: "signed-in",
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      locale: user.locale,
      theme: user.theme,
      sessionVersion: user.sessionVersion,
    },
  };
}
