import "server-only";
import { recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { serverEnv } from "@/lib/config/server-env";
import { db, inTransaction, type TTransactionClient } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { mailUser } from "@/lib/mail/notify-user";
import { createLinkToken, hashLinkToken, type TLinkTokenState } from "./link-token";
import { hashPassword } from "./password";
import { countRateLimitHit } from "./rate-limit";
import { toRetryMinutes } from "./rate-limit-window";

export const forgotPasswordLinkTtlMs = 30 * 60_000;
// An admin's reset replaces the password at once, so its link lives long enough to reach someone away from mail.
export const adminResetLinkTtlMs = 24 * 60 * 60_000;

// Counted whether or not the address has an account, so the limit itself tells nothing.
export const forgotPasswordLimits = {
  address: { limit: 3, windowMs: 60 * 60_000 },
  client: { limit: 10, windowMs: 60 * 60_000 },
};

const resetUrl = (token: string) => new URL(`/reset-password/${token}`, serverEnv.APP_URL).toString();

// Inside the caller's transaction; the caller mails the link once it committed.
export async function createPasswordResetToken(
  tx: TTransactionClient,
  userId: string,
  ttlMs: number,
  now = new Date(),
) {
  const { token, tokenHash } = createLinkToken();
  await tx.passwordResetToken.create({ data: { userId, tokenHash, expiresAt: new Date(now.getTime() + ttlMs) } });
  return token;
}

export async function mailPasswordResetLink(userId: string, token: string, ttlMs: number, isByAdmin: boolean) {
  await mailUser(userId, "passwordReset", { url: resetUrl(token), validMinutes: ttlMs / 60_000, isByAdmin });
}

async function assertUnderLimit(key: string, rule: { limit: number; windowMs: number }, now: Date) {
  const window = await countRateLimitHit(key, rule, now);
  if (window.count > rule.limit) {
    throw new AppError("RATE_LIMITED", "auth.forgotPassword.rateLimited", {
      params: { minutes: toRetryMinutes(window.expiresAt.getTime() - now.getTime()) },
    });
  }
}

// The same answer whether the address has an account or not. The mail goes out after the answer (`delivery`), so
// the time taken does not tell either: both paths run the same queries but one insert.
export async function requestPasswordReset(
  email: string,
  context: Omit<TChangeContext, "actor">,
  now = new Date(),
): Promise<{ delivery: Promise<void> }> {
  if (context.ip) await assertUnderLimit(`forgot-password:ip:${context.ip}`, forgotPasswordLimits.client, now);
  await assertUnderLimit(`forgot-password:address:${email}`, forgotPasswordLimits.address, now);
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, isActive: true } });
  if (!user?.isActive) return { delivery: Promise.resolve() };
  const token = await inTransaction(async (tx) => {
    const created = await createPasswordResetToken(tx, user.id, forgotPasswordLinkTtlMs, now);
    await recordAudit(
      {
        actor: { id: null, email },
        resourceType: "user",
        resourceId: user.id,
        ip: context.ip,
        userAgent: context.userAgent,
        action: "user.password_reset_requested",
      },
      tx,
    );
    return created;
  });
  return { delivery: mailPasswordResetLink(user.id, token, forgotPasswordLinkTtlMs, false) };
}

export async function getPasswordResetLink(
  token: string,
  now = new Date(),
): Promise<{ state: TLinkTokenState; email?: string }> {
  const row = await db.passwordResetToken.findUnique({
    where: { tokenHash: hashLinkToken(token) },
    select: { usedAt: true, expiresAt: true, user: { select: { isActive: true, email: true } } },
  });
  if (!row || row.usedAt || !row.user.isActive) return { state: "invalid" };
  return row.expiresAt <= now ? { state: "expired" } : { state: "valid", email: row.user.email };
}

// Single use under the row's lock; every other session ends (as a password change does) and other links die too.
export async function resetPasswordWithLink(
  token: string,
  password: string,
  context: Omit<TChangeContext, "actor">,
  now = new Date(),
): Promise<{ email: string }> {
  const passwordHash = await hashPassword(password);
  const tokenHash = hashLinkToken(token);
  return inTransaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ id: string; userId: string; usedAt: Date | null; expiresAt: Date }[]>`
      SELECT "id", "userId", "usedAt", "expiresAt" FROM "PasswordResetToken" WHERE "tokenHash" = ${tokenHash} FOR UPDATE`;
    const user = row && (await tx.user.findUnique({ where: { id: row.userId } }));
    if (!row || !user || row.usedAt || !user.isActive) throw new AppError("NOT_FOUND", "auth.resetPassword.invalid");
    if (row.expiresAt <= now) throw new AppError("CONFLICT", "auth.resetPassword.expired");
    await tx.passwordResetToken.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } });
    await tx.user.update({
      where: { id: user.id },
      data: { passwordHash, mustChangePassword: false, sessionVersion: { increment: 1 } },
    });
    await recordAudit(
      {
        actor: { id: user.id, email: user.email },
        resourceType: "user",
        resourceId: user.id,
        ip: context.ip,
        userAgent: context.userAgent,
        action: "user.password_reset_completed",
      },
      tx,
    );
    return { email: user.email };
  });
}
