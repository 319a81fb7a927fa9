import "server-only";
import { createHash, randomInt } from "node:crypto";
import * as OTPAuth from "otpauth";
import QRCode from "qrcode";
import { z } from "zod";
import { recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { serverEnv } from "@/lib/config/server-env";
import { getWebhooksEnv } from "@/lib/config/webhooks-env";
import { openSecret, SecretBoxError, sealSecret } from "@/lib/crypto/secret-box";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { mailUser } from "@/lib/mail/notify-user";
import { claimPasswordAttempt, settlePasswordAttempt } from "./password-attempts";

// RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s; one step either side for clock drift.
const totpPeriod = 30;
const totpWindow = 1;
export const recoveryCodeCount = 10;
// No 0/o, 1/l/i: read off paper. 31^10 ≈ 2^49, so a plain sha256 at rest is enough.
const recoveryAlphabet = "abcdefghjkmnpqrstuvwxyz23456789";
const recoveryCodeLength = 10;

const ZTwoFactorCode = z
  .string()
  .max(32)
  .transform((value) => value.replace(/[\s-]/g, "").toLowerCase());

export const ZConfirmTwoFactorInput = z.object({
  enrolmentToken: z.string().min(1).max(500),
  code: ZTwoFactorCode.pipe(z.string().regex(/^\d{6}$/, "invalidCode")),
});
export type TConfirmTwoFactorInput = z.input<typeof ZConfirmTwoFactorInput>;

export const ZDisableTwoFactorInput = z.object({
  code: ZTwoFactorCode.pipe(z.string().regex(/^\d{6}$/, "invalidCode")),
});
export type TDisableTwoFactorInput = z.input<typeof ZDisableTwoFactorInput>;

// The at-rest key is the one that seals webhook secrets; the purpose (associated data) keeps the boxes apart.
const secretKey = () => getWebhooksEnv().secretKey;
const secretPurpose = (userId: string) => `totp:${userId}`;
const enrolmentPurpose = (userId: string) => `totp-enrolment:${userId}`;

function totpOf(secretBase32: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: new URL(serverEnv.APP_URL).host,
    label,
    algorithm: "SHA1",
    digits: 6,
    period: totpPeriod,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

function matchTotpStep(totp: OTPAuth.TOTP, code: string, now: Date): number | null {
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: totpWindow });
  return delta === null ? null : totp.counter({ timestamp: now.getTime() }) + delta;
}

function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(code.replace(/[\s-]/g, "").toLowerCase()).digest("hex");
}

function generateRecoveryCode(): string {
  const chars = Array.from({ length: recoveryCodeLength }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

export type TTwoFactorEnrolment = { secret: string; otpauthUri: string; qrDataUrl: string; enrolmentToken: string };

export async function startTwoFactorEnrolment(user: { id: string; email: string }): Promise<TTwoFactorEnrolment> {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const otpauthUri = totpOf(secret, user.email).toString();
  return {
    secret,
    otpauthUri,
    qrDataUrl: await QRCode.toDataURL(otpauthUri, { margin: 1, width: 224 }),
    enrolmentToken: sealSecret(secret, enrolmentPurpose(user.id), secretKey()),
  };
}

// Codes are guesses like passwords: the same per-account and per-IP limiter counts them.
async function claimCodeAttempt(email: string, context: TChangeContext): Promise<void> {
  const attempt = await claimPasswordAttempt(email, context.ip ?? null);
  if (attempt.status === "rate-limited") {
    await recordAudit({
      actor: context.actor,
      action: "auth.sign_in_rate_limited",
      ip: context.ip,
      userAgent: context.userAgent,
      metadata: { scope: attempt.scope, retryAfterSeconds: attempt.retryAfterSeconds, during: "two_factor" },
    });
    throw new AppError("RATE_LIMITED", "account.security.errors.tooManyWrongCodes", {
      params: { seconds: attempt.retryAfterSeconds },
    });
  }
}

const invalidCode = () =>
  new AppError("VALIDATION_FAILED", "account.security.errors.invalidCode", { fieldErrors: { code: "invalidCode" } });

export async function confirmTwoFactorEnrolment(
  userId: string,
  input: TConfirmTwoFactorInput,
  context: TChangeContext,
  now = new Date(),
): Promise<{ recoveryCodes: string[]; sessionVersion: number }> {
  const { enrolmentToken, code } = ZConfirmTwoFactorInput.parse(input);
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  if (user.totpEnabledAt) throw new AppError("CONFLICT", "account.security.errors.alreadyEnabled");
  let secret: string;
  try {
    secret = openSecret(enrolmentToken, enrolmentPurpose(userId), secretKey());
  } catch (error) {
    if (error instanceof SecretBoxError)
      throw new AppError("VALIDATION_FAILED", "account.security.errors.enrolmentExpired");
    throw error;
  }
  await claimCodeAttempt(user.email, context);
  const step = matchTotpStep(totpOf(secret, user.email), code, now);
  if (step === null) throw invalidCode();
  await settlePasswordAttempt(user.email, context.ip ?? null, true);

  const recoveryCodes = Array.from({ length: recoveryCodeCount }, generateRecoveryCode);
  // The version bump ends the user's other sessions: one opened before two-factor was on stays on one factor.
  const enabled = await inTransaction(async (tx) => {
    const { sessionVersion } = await tx.user.update({
      where: { id: userId },
      data: {
        totpSecretCiphertext: sealSecret(secret, secretPurpose(userId), secretKey()),
        totpEnabledAt: now,
        totpLastUsedStep: step,
        sessionVersion: { increment: 1 },
      },
      select: { sessionVersion: true },
    });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.recoveryCode.createMany({
      data: recoveryCodes.map((recoveryCode) => ({ userId, codeHash: hashRecoveryCode(recoveryCode) })),
    });
    await recordAudit({ ...auditFields(context, userId), action: "auth.two_factor_enabled" }, tx);
    return { recoveryCodes, sessionVersion };
  });
  await mailUser(userId, "twoFactorChanged", { change: "enabled" });
  return enabled;
}

export async function disableTwoFactor(
  userId: string,
  input: TDisableTwoFactorInput,
  context: TChangeContext,
  now = new Date(),
): Promise<{ sessionVersion: number }> {
  const { code } = ZDisableTwoFactorInput.parse(input);
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  if (!user.totpEnabledAt) return { sessionVersion: user.sessionVersion };
  await claimCodeAttempt(user.email, context);
  if ((await consumeSecondFactor(user, code, now, { allowRecoveryCode: false })) === null) throw invalidCode();
  await settlePasswordAttempt(user.email, context.ip ?? null, true);
  const disabled = await inTransaction(async (tx) => {
    const updated = await tx.user.update({
      where: { id: userId },
      data: {
        totpSecretCiphertext: null,
        totpEnabledAt: null,
        totpLastUsedStep: null,
        sessionVersion: { increment: 1 },
      },
      select: { sessionVersion: true },
    });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await recordAudit({ ...auditFields(context, userId), action: "auth.two_factor_disabled" }, tx);
    return updated;
  });
  await mailUser(userId, "twoFactorChanged", { change: "disabled" });
  return disabled;
}

function auditFields(context: TChangeContext, userId: string) {
  return {
    actor: context.actor,
    resourceType: "user",
    resourceId: userId,
    ip: context.ip,
    userAgent: context.userAgent,
  };
}

type TTwoFactorUser = { id: string; email: string; totpSecretCiphertext: string | null };

// Marks what it accepts as used in one conditional UPDATE, so a code replayed (even in parallel) is refused.
export async function consumeSecondFactor(
  user: TTwoFactorUser,
  rawCode: string,
  now: Date,
  options: { allowRecoveryCode: boolean } = { allowRecoveryCode: true },
): Promise<"totp" | "recovery-code" | null> {
  const code = ZTwoFactorCode.parse(rawCode);
  if (/^\d{6}$/.test(code)) {
    if (!user.totpSecretCiphertext) return null;
    const secret = openSecret(user.totpSecretCiphertext, secretPurpose(user.id), secretKey());
    const step = matchTotpStep(totpOf(secret, user.email), code, now);
    if (step === null) return null;
    const { count } = await db.user.updateMany({
      where: { id: user.id, OR: [{ totpLastUsedStep: null }, { totpLastUsedStep: { lt: step } }] },
      data: { totpLastUsedStep: step },
    });
    return count === 1 ? "totp" : null;
  }
  if (!options.allowRecoveryCode || code.length !== recoveryCodeLength) return null;
  const { count } = await db.recoveryCode.updateMany({
    where: { userId: user.id, codeHash: hashRecoveryCode(code), usedAt: null },
    data: { usedAt: now },
  });
  return count === 1 ? "recovery-code" : null;
}

// Used up once accepted; recovery codes are kept for signing in.
export async function verifyStepUpCode(
  userId: string,
  rawCode: string,
  context: TChangeContext,
  now = new Date(),
): Promise<void> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  if (!user.totpEnabledAt) throw new AppError("CONFLICT", "approverCode.errors.twoFactorNotEnabled");
  await claimCodeAttempt(user.email, context);
  if ((await consumeSecondFactor(user, rawCode, now, { allowRecoveryCode: false })) === null) throw invalidCode();
  await settlePasswordAttempt(user.email, context.ip ?? null, true);
}

export async function countUnusedRecoveryCodes(userId: string): Promise<number> {
  return db.recoveryCode.count({ where: { userId, usedAt: null } });
}

export async function getTwoFactorStatus(userId: string): Promise<{ enabledAt: Date | null }> {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { totpEnabledAt: true } });
  return { enabledAt: user.totpEnabledAt };
}
