import "server-only";
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import {
  type AuthenticationExtensionsClientOutputs,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { z } from "zod";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { serverEnv } from "@/lib/config/server-env";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { verifyPassword } from "./password";
import { claimPasswordAttempt, settlePasswordAttempt } from "./password-attempts";
import { countRateLimitHit } from "./rate-limit";
import { getLimitStatus, toRetrySeconds } from "./rate-limit-window";

const challengeTtlMs = 5 * 60_000;
const ceremonyTimeoutMs = 2 * 60_000;
// Anyone may ask for a sign-in challenge: each is a row until it expires, so an address gets a bounded number.
const challengeRule = { limit: 30, windowMs: 60_000 };
const maxPasskeysPerUser = 20;

type TChallengePurpose = "registration" | "sign-in";

export function getRelyingParty(): { id: string; name: string; origin: string } {
  const url = new URL(serverEnv.APP_URL);
  return { id: url.hostname, name: url.host, origin: url.origin };
}

// Browsers refuse WebAuthn on an IP address: the dashboard must be reached by a name (localhost counts).
export function isPasskeyAvailable(): boolean {
  return isIP(getRelyingParty().id.replace(/^\[|\]$/g, "")) === 0;
}

const hashChallenge = (challenge: string) => createHash("sha256").update(challenge).digest("hex");

async function storeChallenge(challenge: string, purpose: TChallengePurpose, userId: string | null, now: Date) {
  await db.webAuthnChallenge.deleteMany({ where: { expiresAt: { lte: now } } });
  await db.webAuthnChallenge.create({
    data: {
      challengeHash: hashChallenge(challenge),
      purpose,
      userId,
      expiresAt: new Date(now.getTime() + challengeTtlMs),
    },
  });
}

// Deleted as it is checked, in one statement: a second use (even in parallel) finds no row.
export async function consumeChallenge(
  challenge: string,
  purpose: TChallengePurpose,
  userId: string | null,
  now: Date,
): Promise<boolean> {
  const { count } = await db.webAuthnChallenge.deleteMany({
    where: { challengeHash: hashChallenge(challenge), purpose, userId, expiresAt: { gt: now } },
  });
  return count === 1;
}

export const ZBase64Url = z
  .string()
  .max(8192)
  .regex(/^[A-Za-z0-9_-]*$/);
// Read by no check here; only its shape is held.
const ZClientExtensionResults = z.custom<AuthenticationExtensionsClientOutputs>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
);

// What every WebAuthn credential the browser returns carries, registration or assertion.
export const ZPublicKeyCredential = z.object({
  id: ZBase64Url.min(1).max(1366),
  rawId: ZBase64Url.min(1).max(1366),
  type: z.literal("public-key"),
  clientExtensionResults: ZClientExtensionResults,
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

const ZRegistrationResponse = ZPublicKeyCredential.extend({
  response: z.object({
    clientDataJSON: ZBase64Url,
    attestationObject: ZBase64Url,
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});

const ZPasskeyName = z.string().trim().min(1, { error: "nameRequired" }).max(60, { error: "nameTooLong" });

export const ZStartPasskeyRegistrationInput = z.object({
  password: z.string().min(1, { error: "passwordRequired" }).max(128),
});
export type TStartPasskeyRegistrationInput = z.input<typeof ZStartPasskeyRegistrationInput>;

export const ZFinishPasskeyRegistrationInput = z.object({ name: ZPasskeyName, response: ZRegistrationResponse });
export type TFinishPasskeyRegistrationInput = z.input<typeof ZFinishPasskeyRegistrationInput>;

export const ZRenamePasskeyInput = z.object({ id: z.uuid(), name: ZPasskeyName });
export type TRenamePasskeyInput = z.input<typeof ZRenamePasskeyInput>;

export const ZRemovePasskeyInput = ZStartPasskeyRegistrationInput.extend({ id: z.uuid() });
export type TRemovePasskeyInput = z.input<typeof ZRemovePasskeyInput>;

const auditFields = (context: TChangeContext, userId: string) => auditFieldsOf(context, "user", userId);

function assertAvailable() {
  if (!isPasskeyAvailable()) throw new AppError("CONFLICT", "account.passkeys.errors.unavailable");
}

// Adding or removing a way to sign in asks for the password again, under the sign-in limits: a session left open
// on someone's desk must not be enough to plant a passkey of one's own.
async function proveCurrentPassword(userId: string, password: string, context: TChangeContext) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  const ip = context.ip ?? null;
  const attempt = await claimPasswordAttempt(user.email, ip);
  if (attempt.status === "rate-limited") {
    await recordAudit({
      ...auditFields(context, userId),
      action: "auth.sign_in_rate_limited",
      metadata: { scope: attempt.scope, retryAfterSeconds: attempt.retryAfterSeconds, during: "passkey_change" },
    });
    throw new AppError("RATE_LIMITED", "account.passkeys.errors.tooManyWrongPasswords", {
      params: { seconds: attempt.retryAfterSeconds },
    });
  }
  const isCurrent = await verifyPassword(password, user.passwordHash);
  await settlePasswordAttempt(user.email, ip, isCurrent);
  if (!isCurrent) {
    throw new AppError("VALIDATION_FAILED", "account.passkeys.errors.wrongPassword", {
      fieldErrors: { password: "wrongPassword" },
    });
  }
  return user;
}

export async function startPasskeyRegistration(
  userId: string,
  input: TStartPasskeyRegistrationInput,
  context: TChangeContext,
  now = new Date(),
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  assertAvailable();
  const { password } = ZStartPasskeyRegistrationInput.parse(input);
  const user = await proveCurrentPassword(userId, password, context);
  const existing = await db.passkey.findMany({ where: { userId }, select: { credentialId: true, transports: true } });
  if (existing.length >= maxPasskeysPerUser) throw new AppError("CONFLICT", "account.passkeys.errors.tooMany");
  const relyingParty = getRelyingParty();
  const options = await generateRegistrationOptions({
    rpName: relyingParty.name,
    rpID: relyingParty.id,
    userName: user.email,
    userDisplayName: user.name,
    // The user handle a discoverable credential returns at sign-in: the user's id, never the e-mail.
    userID: Uint8Array.from(userHandleOf(user.id)),
    timeout: ceremonyTimeoutMs,
    attestationType: "none",
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await storeChallenge(options.challenge, "registration", userId, now);
  return options;
}

export async function finishPasskeyRegistration(
  userId: string,
  input: TFinishPasskeyRegistrationInput,
  context: TChangeContext,
  now = new Date(),
): Promise<{ sessionVersion: number }> {
  const { name, response } = ZFinishPasskeyRegistrationInput.parse(input);
  const relyingParty = getRelyingParty();
  const verification = await verifyRegistrationResponse({
    response: response as RegistrationResponseJSON,
    expectedChallenge: (challenge) => consumeChallenge(challenge, "registration", userId, now),
    expectedOrigin: relyingParty.origin,
    expectedRPID: relyingParty.id,
    requireUserVerification: true,
  }).catch((error: unknown) => {
    throw new AppError("VALIDATION_FAILED", "account.passkeys.errors.registrationFailed", { cause: error });
  });
  if (!verification.verified) throw new AppError("VALIDATION_FAILED", "account.passkeys.errors.registrationFailed");
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  return inTransaction(async (tx) => {
    if (await tx.passkey.findUnique({ where: { credentialId: credential.id }, select: { id: true } })) {
      throw new AppError("CONFLICT", "account.passkeys.errors.alreadyRegistered");
    }
    const passkey = await tx.passkey.create({
      data: {
        userId,
        credentialId: credential.id,
        publicKey: Uint8Array.from(credential.publicKey),
        counter: BigInt(credential.counter),
        transports: credential.transports ?? [],
        deviceType: credentialDeviceType,
        isBackedUp: credentialBackedUp,
        name,
        createdAt: now,
      },
    });
    // As when two-factor is turned on: sessions opened before this factor existed end.
    const updated = await tx.user.update({
      where: { id: userId },
      data: { sessionVersion: { increment: 1 } },
      select: { sessionVersion: true },
    });
    await recordAudit(
      { ...auditFields(context, userId), action: "auth.passkey_added", metadata: { passkeyId: passkey.id, name } },
      tx,
    );
    return updated;
  });
}

export type TPasskeySummary = {
  id: string;
  name: string;
  isBackedUp: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
};

export async function listPasskeys(userId: string): Promise<TPasskeySummary[]> {
  return db.passkey.findMany({
    where: { userId },
    select: { id: true, name: true, isBackedUp: true, createdAt: true, lastUsedAt: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

export async function hasPasskeys(userId: string): Promise<boolean> {
  return (await db.passkey.count({ where: { userId } })) > 0;
}

const passkeyNotFound = () => new AppError("NOT_FOUND", "account.passkeys.errors.notFound");

export async function renamePasskey(userId: string, input: TRenamePasskeyInput, context: TChangeContext) {
  const { id, name } = ZRenamePasskeyInput.parse(input);
  await inTransaction(async (tx) => {
    const { count } = await tx.passkey.updateMany({ where: { id, userId }, data: { name } });
    if (count === 0) throw passkeyNotFound();
    await recordAudit(
      { ...auditFields(context, userId), action: "auth.passkey_renamed", metadata: { passkeyId: id, name } },
      tx,
    );
  });
}

export async function removePasskey(
  userId: string,
  input: TRemovePasskeyInput,
  context: TChangeContext,
): Promise<{ sessionVersion: number }> {
  const { id, password } = ZRemovePasskeyInput.parse(input);
  const passkey = await db.passkey.findFirst({ where: { id, userId }, select: { name: true } });
  if (!passkey) throw passkeyNotFound();
  await proveCurrentPassword(userId, password, context);
  return inTransaction(async (tx) => {
    const { count } = await tx.passkey.deleteMany({ where: { id, userId } });
    if (count === 0) throw passkeyNotFound();
    // Sessions it opened end with it.
    const updated = await tx.user.update({
      where: { id: userId },
      data: { sessionVersion: { increment: 1 } },
      select: { sessionVersion: true },
    });
    await recordAudit(
      {
        ...auditFields(context, userId),
        action: "auth.passkey_removed",
        metadata: { passkeyId: id, name: passkey.name },
      },
      tx,
    );
    return updated;
  });
}

// Usernameless: no allowCredentials, the browser offers the passkeys it holds for this site.
export async function startPasskeySignIn(
  ip: string | null,
  now = new Date(),
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  assertAvailable();
  if (ip) {
    const window = await countRateLimitHit(`passkey-challenge:ip:${ip}`, challengeRule, now);
    const status = getLimitStatus({ ...window, count: window.count - 1 }, challengeRule, now);
    if (status.isLimited) {
      throw new AppError("RATE_LIMITED", "auth.login.rateLimited", {
        params: { seconds: toRetrySeconds(status.retryAfterMs) },
      });
    }
  }
  const options = await generateAuthenticationOptions({
    rpID: getRelyingParty().id,
    userVerification: "required",
    timeout: ceremonyTimeoutMs,
  });
  await storeChallenge(options.challenge, "sign-in", null, now);
  return options;
}

export function userHandleOf(userId: string): Buffer {
  return Buffer.from(userId.replaceAll("-", ""), "hex");
}
