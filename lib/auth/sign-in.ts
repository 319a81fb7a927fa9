import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { verifyDummyPassword, verifyPassword } from "./password";
import { countRateLimitHit, refundRateLimitHit, resetRateLimit } from "./rate-limit";
import { type TRateLimitRule, toRetryMinutes } from "./rate-limit-window";
import type { TRequestContext } from "./request-context";
import type { TRole } from "./session-user";
import { consumeSecondFactor, countUnusedRecoveryCodes } from "./two-factor";

// Per account stops guessing one password; per IP stops one address spraying many accounts; the IP limit is
// looser because offices share an address.
export const signInLimits = {
  account: { limit: 5, windowMs: 15 * 60_000 },
  ip: { limit: 20, windowMs: 15 * 60_000 },
} satisfies Record<string, TRateLimitRule>;

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
  | { status: "rate-limited"; retryAfterMinutes: number };

export const accountLimitKey = (email: string) => `sign-in:account:${email}`;
export const ipLimitKey = (ip: string) => `sign-in:ip:${ip}`;

export type TPasswordAttempt =
  | { status: "allowed" }
  | { status: "rate-limited"; scope: "account" | "ip"; retryAfterMinutes: number };

// Every password check (sign-in, password change) is counted before the hash runs, so parallel guesses each see
// their own count and only the first `limit` of a burst reach the hash. A success gives its hits back in
// settlePasswordAttempt, so in effect failures only are counted.
export async function claimPasswordAttempt(
  email: string,
  ip: string | null,
  now = new Date(),
): Promise<TPasswordAttempt> {
  const limits = [
    ...(ip ? [{ scope: "ip" as const, key: ipLimitKey(ip), rule: signInLimits.ip }] : []),
    { scope: "account" as const, key: accountLimitKey(email), rule: signInLimits.account },
  ];
  // One after the other (the embedded database runs a single statement at a time), IP first, so a limited IP
  // does not also use up the account's tries.
  for (const { scope, key, rule } of limits) {
    const window = await countRateLimitHit(key, rule, now);
    if (window.count > rule.limit) {
      return {
        status: "rate-limited",
        scope,
        retryAfterMinutes: toRetryMinutes(window.expiresAt.getTime() - now.getTime()),
      };
    }
  }
  return { status: "allowed" };
}

export async function settlePasswordAttempt(email: string, ip: string | null, isSuccess: boolean): Promise<void> {
  if (!isSuccess) return;
  await resetRateLimit(accountLimitKey(email));
  if (ip) await refundRateLimitHit(ipLimitKey(ip));
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
    const { scope, retryAfterMinutes } = attempt;
    await recordAudit({
      ...audit,
      actor: { id: null, email },
      action: "auth.sign_in_rate_limited",
      metadata: { scope, retryAfterMinutes },
    });
    return { status: "rate-limited", retryAfterMinutes };
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
      // Not a guess: give this attempt's hits back, without clearing the count earlier wrong codes left.
      await refundRateLimitHit(accountLimitKey(email));
      if (context.ip) await refundRateLimitHit(ipLimitKey(context.ip));
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
