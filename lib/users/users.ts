import "server-only";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { generateOneTimePassword, hashPassword, unusablePasswordHash, verifyPassword } from "@/lib/auth/password";
import { claimPasswordAttempt, settlePasswordAttempt } from "@/lib/auth/password-attempts";
import { adminResetLinkTtlMs, createPasswordResetToken, mailPasswordResetLink } from "@/lib/auth/password-reset";
import { ownerRoleId } from "@/lib/auth/roles";
import { db, inTransaction } from "@/lib/db/client";
import { takeTransactionLock } from "@/lib/db/locks";
import { AppError } from "@/lib/errors";
import { Prisma, type User } from "@/lib/generated/prisma/client";
import type { TLocale } from "@/lib/i18n/config";
import { mailUser } from "@/lib/mail/notify-user";
import type { TTheme } from "@/lib/theme/config";
import { assertMayGrant, findRole } from "./roles";
import {
  type TChangeOwnPasswordInput,
  type TCreateUserInput,
  ZChangeOwnPasswordInput,
  ZCreateUserInput,
} from "./schemas";

export type TUserSummary = Pick<
  User,
  | "id"
  | "email"
  | "name"
  | "roleId"
  | "isActive"
  | "mustChangePassword"
  | "lastSignInAt"
  | "createdAt"
  | "totpEnabledAt"
>;

const summarySelect = {
  id: true,
  email: true,
  name: true,
  roleId: true,
  isActive: true,
  mustChangePassword: true,
  lastSignInAt: true,
  createdAt: true,
  totpEnabledAt: true,
} satisfies Prisma.UserSelect;

type Tx = Prisma.TransactionClient;

const auditFields = (context: TChangeContext, userId: string) => auditFieldsOf(context, "user", userId);

// A passkey is a second factor too (lib/auth/passkeys.ts): the list shows either as "two-factor on".
export async function listUsers(): Promise<(TUserSummary & { hasPasskeys: boolean })[]> {
  const users = await db.user.findMany({
    select: { ...summarySelect, _count: { select: { passkeys: true } } },
    orderBy: [{ isActive: "desc" }, { name: "asc" }, { email: "asc" }],
  });
  return users.map(({ _count, ...user }) => ({ ...user, hasPasskeys: _count.passkeys > 0 }));
}

// Returns the one-time password when none was given: it is shown once and never stored in clear.
export async function createUser(
  input: TCreateUserInput,
  context: TChangeContext,
): Promise<{ user: TUserSummary; oneTimePassword: string | null }> {
  const { email, name, roleId, password } = ZCreateUserInput.parse(input);
  await assertMayGrant(db, context, await findRole(db, roleId));
  const oneTimePassword = password ? null : generateOneTimePassword();
  const passwordHash = await hashPassword(password ?? oneTimePassword!);
  try {
    const user = await inTransaction(async (tx) => {
      const created = await tx.user.create({
        data: { email, name, roleId, passwordHash, mustChangePassword: oneTimePassword !== null },
        select: summarySelect,
      });
      await recordAudit(
        { ...auditFields(context, created.id), action: "user.created", metadata: { email, roleId } },
        tx,
      );
      return created;
    });
    return { user, oneTimePassword };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", "users.errors.emailTaken", {
        fieldErrors: { email: "emailTaken" },
      });
    }
    throw error;
  }
}

// Changes of standing queue behind one lock first: two Owners demoting each other would otherwise each hold their
// target's row while waiting for the other's.
async function findUserForUpdate(tx: Tx, userId: string): Promise<User> {
  await takeTransactionLock(tx, "user_standing");
  const [locked] = await tx.$queryRaw<
    { id: string }[]
  >`SELECT "id" FROM "User" WHERE "id" = ${userId}::uuid FOR UPDATE`;
  const user = locked && (await tx.user.findUnique({ where: { id: locked.id } }));
  if (!user) throw new AppError("NOT_FOUND", "users.errors.invalidUser");
  return user;
}

// No changing one's own role or standing, and the last active Owner stays.
async function assertOwnerRemains(tx: Tx, user: User, context: TChangeContext): Promise<void> {
  if (context.actor?.id === user.id) {
    throw new AppError("CONFLICT", "users.errors.selfChange", {
      fieldErrors: { user: "selfChange" },
    });
  }
  if (user.roleId !== ownerRoleId || !user.isActive) return;
  const owners = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "User" WHERE "roleId" = ${ownerRoleId} AND "isActive" ORDER BY "id" FOR UPDATE`;
  if (owners.filter((owner) => owner.id !== user.id).length === 0) {
    throw new AppError("CONFLICT", "users.errors.lastOwner", { fieldErrors: { user: "lastOwner" } });
  }
}

// The person's current role and the new one must both be within what the actor holds.
export async function changeUserRole(userId: string, roleId: string, context: TChangeContext): Promise<TUserSummary> {
  return inTransaction(async (tx) => {
    const user = await findUserForUpdate(tx, userId);
    if (user.roleId === roleId) return tx.user.findUniqueOrThrow({ where: { id: userId }, select: summarySelect });
    await assertMayGrant(tx, context, await findRole(tx, user.roleId));
    await assertMayGrant(tx, context, await findRole(tx, roleId));
    await assertOwnerRemains(tx, user, context);
    const updated = await tx.user.update({
      where: { id: userId },
      data: { roleId, sessionVersion: { increment: 1 } },
      select: summarySelect,
    });
    await recordAudit(
      { ...auditFields(context, userId), action: "user.role_changed", metadata: { from: user.roleId, to: roleId } },
      tx,
    );
    return updated;
  });
}

export async function setUserActive(userId: string, isActive: boolean, context: TChangeContext): Promise<TUserSummary> {
  return inTransaction(async (tx) => {
    const user = await findUserForUpdate(tx, userId);
    if (user.isActive === isActive) return tx.user.findUniqueOrThrow({ where: { id: userId }, select: summarySelect });
    await assertMayGrant(tx, context, await findRole(tx, user.roleId));
    if (!isActive) await assertOwnerRemains(tx, user, context);
    // The version bump ends every session the user holds, on its next request.
    const updated = await tx.user.update({
      where: { id: userId },
      data: { isActive, sessionVersion: { increment: 1 } },
      select: summarySelect,
    });
    await recordAudit(
      { ...auditFields(context, userId), action: isActive ? "user.reactivated" : "user.deactivated" },
      tx,
    );
    return updated;
  });
}

// The password stops working at once and every session ends; the user chooses a new one through the mailed link.
export async function resetUserPassword(userId: string, context: TChangeContext): Promise<void> {
  const { token, isActive } = await inTransaction(async (tx) => {
    const user = await findUserForUpdate(tx, userId);
    // Whoever resets a password could sign in as that person: only within what the actor holds.
    await assertMayGrant(tx, context, await findRole(tx, user.roleId));
    await tx.user.update({
      where: { id: userId },
      data: { passwordHash: unusablePasswordHash, mustChangePassword: false, sessionVersion: { increment: 1 } },
    });
    await recordAudit({ ...auditFields(context, userId), action: "user.password_reset" }, tx);
    return { token: await createPasswordResetToken(tx, userId, adminResetLinkTtlMs), isActive: user.isActive };
  });
  if (isActive) await mailPasswordResetLink(userId, token, adminResetLinkTtlMs, true);
}

// For a user who lost their authenticator and recovery codes (and passkeys, removed too): they sign in with the
// password alone and may enrol again. Not for oneself: an admin turns their own off at /account/security, proving a code.
export async function resetUserTwoFactor(userId: string, context: TChangeContext): Promise<void> {
  if (context.actor?.id === userId) {
    throw new AppError("CONFLICT", "users.errors.selfTwoFactorReset", {
      fieldErrors: { user: "selfTwoFactorReset" },
    });
  }
  await inTransaction(async (tx) => {
    const user = await findUserForUpdate(tx, userId);
    await assertMayGrant(tx, context, await findRole(tx, user.roleId));
    await tx.user.update({
      where: { id: userId },
      data: {
        totpSecretCiphertext: null,
        totpEnabledAt: null,
        totpLastUsedStep: null,
        sessionVersion: { increment: 1 },
      },
    });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    const { count: passkeysRemoved } = await tx.passkey.deleteMany({ where: { userId } });
    await recordAudit(
      {
        ...auditFields(context, userId),
        action: "user.two_factor_reset",
        metadata: { wasEnabled: user.totpEnabledAt !== null, passkeysRemoved },
      },
      tx,
    );
  });
  await mailUser(userId, "twoFactorChanged", { change: "reset" });
}

// Ends the user's other sessions too; the caller re-issues the current one with the returned version.
export async function changeOwnPassword(
  userId: string,
  input: TChangeOwnPasswordInput,
  context: Omit<TChangeContext, "actor">,
): Promise<{ sessionVersion: number }> {
  const { currentPassword, newPassword } = ZChangeOwnPasswordInput.parse(input);
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user?.isActive) throw new AppError("NOT_FOUND", "users.errors.invalidUser");
  // The sign-in counters (per account and IP): a borrowed session must not guess the password faster here.
  const ip = context.ip ?? null;
  const attempt = await claimPasswordAttempt(user.email, ip);
  if (attempt.status === "rate-limited") {
    const { scope, retryAfterSeconds } = attempt;
    await recordAudit({
      ...auditFields({ ...context, actor: { id: user.id, email: user.email } }, userId),
      action: "auth.sign_in_rate_limited",
      metadata: { scope, retryAfterSeconds, during: "password_change" },
    });
    throw new AppError("RATE_LIMITED", "users.errors.tooManyWrongPasswords", {
      params: { seconds: retryAfterSeconds },
    });
  }
  const isCurrent = await verifyPassword(currentPassword, user.passwordHash);
  await settlePasswordAttempt(user.email, ip, isCurrent);
  if (!isCurrent) {
    throw new AppError("VALIDATION_FAILED", "users.errors.wrongPassword", {
      fieldErrors: { currentPassword: "wrongPassword" },
    });
  }
  const passwordHash = await hashPassword(newPassword);
  return inTransaction(async (tx) => {
    const updated = await tx.user.update({
      where: { id: userId },
      data: { passwordHash, mustChangePassword: false, sessionVersion: { increment: 1 } },
      select: { sessionVersion: true },
    });
    await recordAudit(
      {
        ...auditFields({ ...context, actor: { id: user.id, email: user.email } }, userId),
        action: "user.password_changed",
      },
      tx,
    );
    return updated;
  });
}

/** A display preference only: no audit entry, unlike the language (which changes what the user reads). */
export async function updateOwnTheme(userId: string, theme: TTheme): Promise<void> {
  await db.user.updateMany({ where: { id: userId, theme: { not: theme } }, data: { theme } });
}

export async function updateOwnLocale(
  userId: string,
  locale: TLocale,
  context: Omit<TChangeContext, "actor"> = {},
): Promise<void> {
  await inTransaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true, locale: true } });
    if (!user) throw new AppError("NOT_FOUND", "users.errors.invalidUser");
    if (user.locale === locale) return;
    await tx.user.update({ where: { id: userId }, data: { locale } });
    await recordAudit(
      {
        ...auditFields({ ...context, actor: { id: userId, email: user.email } }, userId),
        action: "user.locale_changed",
        metadata: { from: user.locale, to: locale },
      },
      tx,
    );
  });
}
