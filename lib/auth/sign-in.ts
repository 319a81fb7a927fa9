import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { verifyDummyPassword, verifyPassword } from "./password";
import { countRateLimitHit, getRateLimitStatus, resetRateLimit } from "./rate-limit";
import { type TRateLimitRule, toRetryMinutes } from "./rate-limit-window";
import type { TRequestContext } from "./request-context";
import type { TRole } from "./session-user";

// Failed attempts only are counted. Per account stops guessing one password; per IP stops one
// address spraying many accounts; the IP limit is looser because offices share an address.
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
  sessionVersion: number;
};

export type TSignInResult =
  | { status: "signed-in"; user: TSignedInUser }
  | { status: "invalid" }
  | { status: "rate-limited"; retryAfterMinutes: number };

export const accountLimitKey = (email: string) => `sign-in:account:${email}`;
export const ipLimitKey = (ip: string) => `sign-in:ip:${ip}`;

export async function signInWithPassword(
  credentials: { email: string; password: string },
  context: TRequestContext,
  now = new Date(),
): Promise<TSignInResult> {
  const email = credentials.email.trim().toLowerCase();
  const limits = [
    { scope: "account", key: accountLimitKey(email), rule: signInLimits.account },
    ...(context.ip ? [{ scope: "ip", key: ipLimitKey(context.ip), rule: signInLimits.ip }] : []),
  ];
  const audit = { ip: context.ip, userAgent: context.userAgent, resourceType: "user" } as const;

  const statuses = await Promise.all(limits.map((limit) => getRateLimitStatus(limit.key, limit.rule, now)));
  const limited = statuses
    .map((status, index) => ({ ...status, scope: limits[index]!.scope }))
    .filter((status) => status.isLimited)
    .sort((a, b) => b.retryAfterMs - a.retryAfterMs)[0];
  if (limited) {
    const retryAfterMinutes = toRetryMinutes(limited.retryAfterMs);
    await recordAudit({
      ...audit,
      actor: { id: null, email },
      action: "auth.sign_in_rate_limited",
      metadata: { scope: limited.scope, retryAfterMinutes },
    });
    return { status: "rate-limited", retryAfterMinutes };
  }

  const user = await db.user.findUnique({ where: { email } });
  const isValid = user
    ? await verifyPassword(credentials.password, user.passwordHash)
    : await verifyDummyPassword(credentials.password);

  if (!user || !isValid || !user.isActive) {
    // One after the other: the embedded database runs a single transaction at a time.
    for (const limit of limits) await countRateLimitHit(limit.key, limit.rule, now);
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

  await resetRateLimit(accountLimitKey(email));
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
      sessionVersion: user.sessionVersion,
    },
  };
}
