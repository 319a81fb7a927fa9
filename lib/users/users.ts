import "server-only";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { generateOneTimePassword, hashPassword, verifyPassword } from "@/lib/auth/password";
import { claimPasswordAttempt, settlePasswordAttempt } from "@/lib/auth/password-attempts";
import type { TRole } from "@/lib/auth/session-user";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { Prisma, type User } from "@/lib/generated/prisma/client";
import type { TLocale } from "@/lib/i18n/config";
import type { TTheme } from "@/lib/theme/config";
import {
  type TChangeOwnPasswordInput,
  type TCreateUserInput,
  ZChangeOwnPasswordInput,
  ZCreateUserInput,
} from "./schemas";

export type TUserSummary = Pick<
  User,
  "id" | "email" | "name" | "role" | "isActive" | "mustChangePassword" | "lastSignInAt" | "createdAt" | "totpEnabledAt"
>;

const summarySelect = {
  id: true,
  email: true,
  name: true,
  role: true,
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
  const { email, name, role, password } = ZCreateUserInput.parse(input);
  const oneTimePassword = password ? null : generateOneTimePassword();
  const passwordHash = await hashPassword(password ?? oneTimePassword!);
  try {
    const user = await inTransaction(async (tx) => {
      const created = await tx.user.create({
        data: { email, name, role, passwordHash, mustChangePassword: oneTimePassword !== null },
        select: summarySelect,
      });
      await recordAudit({ ...auditFields(context, created.id), action: "user.created", metadata: { email, role } }, tx);
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

async function findUserForUpdate(tx: Tx, userId: string): Promise<User> {
  const [locked] = await tx.$queryRaw<
    { id: string }[]
  >`SELECT "id" FROM "User" WHERE "id" = ${userId}::uuid FOR UPDATE`;
  const user = locked && (await tx.user.findUnique({ where: { id: locked.id } }));
  if (!user) throw new AppError("NOT_FOUND", "users.errors.invalidUser");
  return user;
}

// No self-demotion and no removing the last active admin. Admin rows are locked so two admins demoting each
// other at once cannot both succeed.
async function assertAdminRemains(tx: Tx, user: User, context: TChangeContext): Promise<void> {
  if (context.actor?.id === user.id) {
    throw new AppError("CONFLICT", "users.errors.selfChange", {
      fieldErrors: { user: "selfChange" },
    });
  }
  if (user.role !== "ADMIN" || !user.isActive) return;
  const admins = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "User" WHERE "role" = 'ADMIN' AND "isActive" ORDER BY "id" FOR UPDATE`;
  if (admins.filter((admin) => admin.id !== user.id).length === 0) {
    throw new AppError("CONFLICT", "users.errors.lastAdmin", { fieldErrors: { user: "lastAdmin" } });
  }
}

export async function changeUserRole(userId: string, role: TRole, context: TChangeContext): Promise<TUserSummary> {
  return inTransaction(async (tx) => {
    const user = await findUserForUpdate(tx, userId);
    if (user.role === role) return tx.user.findUniqueOrThrow({ where: { id: userId }, select: summarySelect });
    if (role !== "ADMIN") await assertAdminRemains(tx, user, context);
    const updated = await tx.user.update({
      where: { id: userId },
      data: { role, sessionVersion: { increment: 1 } },
      select: summarySelect,
    });
    await recordAudit(
      { ...auditFields(context, userId), action: "user.role_changed", metadata: { from: user.role, to: role } },
      tx,
    );
    return updated;
  });
}

export async function setUserActive(userId: string, isActive: boolean, context: TChangeContext): Promise<TUserSummary> {
  return inTransaction(async (tx) => {
    const user = await findUserForUpdate(tx, userId);
    if (user.isActive === isActive) return tx.user.findUniqueOrThrow({ where: { id: userId }, select: summarySelect });
    if (!isActive) await assertAdminRemains(tx, user, context);
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

export async function resetUserPassword(userId: string, context: TChangeContext): Promise<{ oneTimePassword: string }> {
  const oneTimePassword = generateOneTimePassword();
  const passwordHash = await hashPassword(oneTimePassword);
  await inTransaction(async (tx) => {
    await findUserForUpdate(tx, userId);
    await tx.user.update({
      where: { id: userId },
      data: { passwordHash, mustChangePassword: true, sessionVersion: { increment: 1 } },
    });
    await recordAudit({ ...auditFields(context, userId), action: "user.password_reset" }, tx);
  });
  return { oneTimePassword };
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
