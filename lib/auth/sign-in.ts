import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { verifyDummyPassword, verifyPassword } from "./password";
import { claimPasswordAttempt, givePasswordAttemptBack, settlePasswordAttempt } from "./password-attempts";
import type { TRequestContext } from "./request-context";
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
  | { status: "two-factor-required" }
  | { status: "rate-limited"; retryAfterSeconds: number };

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
      locale: user.locale,
      theme: user.theme,
      sessionVersion: user.sessionVersion,
    },
  };
}
