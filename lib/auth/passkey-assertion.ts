import "server-only";
import { type AuthenticationResponseJSON, verifyAuthenticationResponse } from "@simplewebauthn/server";
import { z } from "zod";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { consumeChallenge, getRelyingParty, userHandleOf, ZBase64Url, ZPublicKeyCredential } from "./passkeys";

export const ZAuthenticationResponse = ZPublicKeyCredential.extend({
  response: z.object({
    clientDataJSON: ZBase64Url,
    authenticatorData: ZBase64Url,
    signature: ZBase64Url,
    userHandle: ZBase64Url.optional(),
  }),
});

// next-auth posts credentials as form fields: the assertion travels as JSON text.
export const ZAuthenticationResponseText = z
  .string()
  .max(16_384)
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: "custom", message: "invalidPasskeyResponse" });
      return z.NEVER;
    }
  })
  .pipe(ZAuthenticationResponse);

type TStoredPasskey = {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: Uint8Array;
  counter: bigint;
  transports: string[];
};

type TAssertionResult =
  | { status: "verified"; counter: number }
  | { status: "failed" }
  | { status: "counter-regressed"; storedCounter: number; receivedCounter: number };

// The signature, challenge (used up here), origin, RP id and user verification; then the counter policy: an
// authenticator that counts must show a higher count than last time, or it may be a copy; the stored counter and
// last use change only on success, in one conditional UPDATE, so two parallel uses of one count cannot both pass.
async function verifyPasskeyAssertion(
  passkey: TStoredPasskey,
  response: TAuthenticationResponse,
  now = new Date(),
): Promise<TAssertionResult> {
  const relyingParty = getRelyingParty();
  const storedCounter = Number(passkey.counter);
  if (
    response.response.userHandle &&
    response.response.userHandle !== userHandleOf(passkey.userId).toString("base64url")
  ) {
    return { status: "failed" };
  }
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: (challenge) => consumeChallenge(challenge, "sign-in", null, now),
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      requireUserVerification: true,
      // The library's own counter check runs before the signature is checked; ours runs after it (below).
      credential: {
        id: passkey.credentialId,
        publicKey: Uint8Array.from(passkey.publicKey),
        counter: 0,
        transports: passkey.transports,
      },
    });
  } catch {
    return { status: "failed" };
  }
  if (!verification.verified) return { status: "failed" };
  const { newCounter, credentialBackedUp } = verification.authenticationInfo;
  const doesCount = newCounter > 0 || storedCounter > 0;
  if (doesCount && newCounter <= storedCounter) {
    return { status: "counter-regressed", storedCounter, receivedCounter: newCounter };
  }
  const { count } = await db.passkey.updateMany({
    where: { id: passkey.id, counter: doesCount ? { lt: BigInt(newCounter) } : 0 },
    data: { counter: BigInt(newCounter), lastUsedAt: now, isBackedUp: credentialBackedUp },
  });
  if (count === 0) return { status: "counter-regressed", storedCounter, receivedCounter: newCounter };
  return { status: "verified", counter: newCounter };
}

export type TAuthenticationResponse = z.output<typeof ZAuthenticationResponse>;
export type TSignInAudit = { ip: string | null; userAgent: string | null; resourceType: "user" };
export type TPasskeyFailure = { status: "invalid" } | { status: "passkey-counter-regressed" };

export async function recordSignInFailure(
  audit: TSignInAudit,
  user: { id: string; email: string },
  metadata: { reason: string; passkeyId?: string },
): Promise<{ status: "invalid" }> {
  await recordAudit({
    ...audit,
    actor: { id: user.id, email: user.email },
    resourceId: user.id,
    action: "auth.sign_in_failed",
    metadata,
  });
  return { status: "invalid" };
}

// Verifies and audits a refusal; null when the passkey was good. A counter that went backwards is its own entry.
export async function checkPasskey(
  passkey: TStoredPasskey,
  user: { id: string; email: string },
  response: TAuthenticationResponse,
  audit: TSignInAudit,
  now: Date,
): Promise<TPasskeyFailure | null> {
  const result = await verifyPasskeyAssertion(passkey, response, now);
  if (result.status === "verified") return null;
  if (result.status === "counter-regressed") {
    const { storedCounter, receivedCounter } = result;
    await recordAudit({
      ...audit,
      actor: { id: user.id, email: user.email },
      resourceId: user.id,
      action: "auth.passkey_counter_regressed",
      metadata: { passkeyId: passkey.id, storedCounter, receivedCounter },
    });
    return { status: "passkey-counter-regressed" };
  }
  return recordSignInFailure(audit, user, { reason: "passkey_not_verified", passkeyId: passkey.id });
}

// After the right password: the passkey must be one of this user's.
export async function verifyPasskeyAsSecondFactor(
  user: { id: string; email: string },
  response: TAuthenticationResponse,
  audit: TSignInAudit,
  now: Date,
): Promise<TPasskeyFailure | null> {
  const passkey = await db.passkey.findUnique({ where: { credentialId: response.id } });
  if (passkey?.userId !== user.id) return recordSignInFailure(audit, user, { reason: "unknown_passkey" });
  return checkPasskey(passkey, user, response, audit, now);
}
