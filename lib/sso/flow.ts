import "server-only";
import { createHash, randomBytes } from "node:crypto";
import * as oidc from "openid-client";
import { auditFieldsOf, recordAudit } from "@/lib/audit/audit-log";
import { createLinkToken, hashLinkToken } from "@/lib/auth/link-token";
import { noPasswordHash } from "@/lib/auth/password";
import { countRateLimitHit } from "@/lib/auth/rate-limit";
import type { TRequestContext } from "@/lib/auth/request-context";
import { ownerRoleId } from "@/lib/auth/roles";
import { serverEnv } from "@/lib/config/server-env";
import { getWebhooksEnv } from "@/lib/config/webhooks-env";
import { openSecret, sealSecret } from "@/lib/crypto/secret-box";
import { db, inTransaction } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { acceptInvitationWithoutPassword, getInvitationByToken } from "@/lib/users/invitations";
import { findRole, isAdministrationRole } from "@/lib/users/roles";
import type { TSsoRefusal } from "./refusals";
import { emailDomain, getSsoClientConfig, type TSsoClientConfig, type TSsoSettings } from "./settings";

export type TSsoOutcome = { status: "ticket"; ticket: string } | { status: "refused"; reason: TSsoRefusal };

const attemptTtlMs = 10 * 60_000;
const ticketTtlMs = 60_000;
// Spent rows stay a day so a replay is told apart from an unknown state.
const keepSpentMs = 24 * 60 * 60_000;
const discoveryTtlMs = 60 * 60_000;
// Each start stores an attempt: an address gets a bounded number.
const startRule = { limit: 30, windowMs: 60_000 };

export const ssoCallbackPath = "/api/auth/sso/callback";
const redirectUri = () => new URL(ssoCallbackPath, serverEnv.APP_URL).toString();
const verifierPurpose = (stateHash: string) => `sso-verifier:${stateHash}`;
const hashOf = (value: string) => createHash("sha256").update(value).digest("hex");

class SsoRefused extends Error {
  constructor(
    readonly reason: TSsoRefusal,
    readonly detail?: string,
  ) {
    super(reason);
  }
}

let discovered: { key: string; at: number; config: Promise<oidc.Configuration> } | null = null;

// Discovery once an hour per issuer and client; a failed discovery is not kept.
function discover(client: TSsoClientConfig, now: number): Promise<oidc.Configuration> {
  const key = hashOf(`${client.issuerUrl}\n${client.clientId}\n${client.clientSecret}`);
  if (discovered?.key === key && now - discovered.at < discoveryTtlMs) return discovered.config;
  const issuer = new URL(client.issuerUrl);
  const config = oidc.discovery(issuer, client.clientId, client.clientSecret, undefined, {
    // Settings accept plain http only on loopback (lib/sso/settings.ts).
    execute: issuer.protocol === "http:" ? [oidc.allowInsecureRequests] : [],
    timeout: 10,
  });
  const entry = { key, at: now, config };
  discovered = entry;
  config.catch(() => {
    if (discovered === entry) discovered = null;
  });
  return config;
}

export async function isSsoAvailable(): Promise<boolean> {
  return (await getSsoClientConfig().catch(() => null)) !== null;
}

// The invitation page offers SSO to an invitee whose domain the settings name (JIT-allowed or SSO-only).
export async function isSsoOfferedFor(email: string): Promise<boolean> {
  const settings = await getSsoClientConfig().catch(() => null);
  const domain = emailDomain(email);
  return !!settings && (settings.allowedDomains.includes(domain) || settings.ssoOnlyDomains.includes(domain));
}

// The browser keeps `browserSecret` in a cookie; the callback must bring it back (no sign-in forced on a victim).
export async function startSsoSignIn(
  options: { invitationToken?: string; ip: string | null },
  now = new Date(),
): Promise<{ status: "redirect"; url: string; browserSecret: string } | { status: "refused"; reason: TSsoRefusal }> {
  const settings = await getSsoClientConfig();
  if (!settings) return { status: "refused", reason: "notConfigured" };
  if ((await countRateLimitHit(`sso-start:ip:${options.ip ?? "unknown"}`, startRule, now)).count > startRule.limit) {
    return { status: "refused", reason: "rateLimited" };
  }
  if (options.invitationToken && (await getInvitationByToken(options.invitationToken, now)).state !== "valid") {
    return { status: "refused", reason: "invitationInvalid" };
  }
  let config: oidc.Configuration;
  try {
    config = await discover(settings.client, now.getTime());
  } catch (error) {
    log.warn({ err: error }, "sso discovery failed");
    return { status: "refused", reason: "providerRefused" };
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const browserSecret = randomBytes(32).toString("base64url");
  const stateHash = hashLinkToken(state);
  await db.ssoLoginAttempt.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - keepSpentMs) } } });
  await db.ssoLoginAttempt.create({
    data: {
      stateHash,
      browserHash: hashLinkToken(browserSecret),
      nonce,
      codeVerifierCiphertext: sealSecret(codeVerifier, verifierPurpose(stateHash), getWebhooksEnv().secretKey),
      invitationTokenHash: options.invitationToken ? hashLinkToken(options.invitationToken) : null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + attemptTtlMs),
    },
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(),
    scope: "openid email profile",
    response_type: "code",
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  return { status: "redirect", url: url.toString(), browserSecret };
}

// Spent at most once: of two callbacks with one state, one wins the conditional update.
async function consumeAttempt(state: string | null, browserSecret: string | undefined, now: Date) {
  if (!state) throw new SsoRefused("invalidState");
  const stateHash = hashLinkToken(state);
  const attempt = await db.ssoLoginAttempt.findUnique({ where: { stateHash } });
  if (!attempt) throw new SsoRefused("invalidState");
  if (attempt.consumedAt) throw new SsoRefused("replayed");
  if (attempt.expiresAt <= now) throw new SsoRefused("expired");
  if (!browserSecret || hashLinkToken(browserSecret) !== attempt.browserHash) {
    throw new SsoRefused("invalidState", "browser");
  }
  const { count } = await db.ssoLoginAttempt.updateMany({
    where: { id: attempt.id, consumedAt: null },
    data: { consumedAt: now },
  });
  if (count === 0) throw new SsoRefused("replayed");
  const codeVerifier = openSecret(
    attempt.codeVerifierCiphertext,
    verifierPurpose(stateHash),
    getWebhooksEnv().secretKey,
  );
  return { ...attempt, state, codeVerifier };
}

type TIdentity = { email: string; name: string | null; groups: string[] };

// openid-client checks PKCE, state, nonce and the ID token (signature, issuer, audience = client id, expiry).
async function verifiedIdentity(
  callbackUrl: URL,
  attempt: { state: string; nonce: string; codeVerifier: string },
  settings: TSsoSettings & { client: TSsoClientConfig },
  now: Date,
): Promise<TIdentity> {
  let claims: Record<string, unknown>;
  try {
    const config = await discover(settings.client, now.getTime());
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: attempt.codeVerifier,
      expectedState: attempt.state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error("no ID token");
    claims = idClaims;
    // Many providers put email and groups only in UserInfo; what the ID token says wins.
    if (claims.email === undefined || claims[settings.groupsClaim] === undefined) {
      claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)), ...idClaims };
    }
  } catch (error) {
    // openid-client wraps the failed check; its cause names it (e.g. the audience's 'unexpected JWT "aud" …').
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const detail = cause instanceof Error ? cause.message.slice(0, 200) : "unknown";
    log.warn({ err: error }, "sso callback refused by the token checks");
    throw new SsoRefused("providerRefused", detail);
  }
  if (typeof claims.email !== "string" || !claims.email.includes("@")) throw new SsoRefused("emailMissing");
  if (settings.requireVerifiedEmail && claims.email_verified !== true && claims.email_verified !== "true") {
    throw new SsoRefused("emailNotVerified");
  }
  const raw = claims[settings.groupsClaim];
  const groups = Array.isArray(raw)
    ? raw.filter((value) => typeof value === "string")
    : typeof raw === "string"
      ? [raw]
      : [];
  return {
    email: claims.email.trim().toLowerCase(),
    name: typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 200) : null,
    groups,
  };
}

// The first row of the mapping whose group the person is in; a role deleted since maps to nothing.
async function mappedRoleId(settings: TSsoSettings, groups: string[]): Promise<string | null> {
  const row = settings.groupRoles.find((mapping) => groups.includes(mapping.group));
  if (!row) return null;
  return (await db.role.findUnique({ where: { id: row.roleId }, select: { id: true } }))?.id ?? null;
}

async function issueTicket(userId: string, now: Date): Promise<string> {
  const { token, tokenHash } = createLinkToken();
  await db.ssoSignInTicket.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - keepSpentMs) } } });
  await db.ssoSignInTicket.create({
    data: { tokenHash, userId, createdAt: now, expiresAt: new Date(now.getTime() + ticketTtlMs) },
  });
  return token;
}

// Owners and admins are changed only in the dashboard (an Owner, or a second admin, decides): never from a group.
async function applyMappedRole(
  user: { id: string; email: string; roleId: string },
  roleId: string | null,
  context: TRequestContext,
) {
  if (!roleId || roleId === user.roleId) return;
  if (user.roleId === ownerRoleId || isAdministrationRole(await findRole(db, user.roleId))) return;
  await inTransaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { roleId, sessionVersion: { increment: 1 } } });
    await recordAudit(
      {
        ...auditFieldsOf({ ...context, actor: { id: user.id, email: user.email } }, "user", user.id),
        action: "user.role_changed",
        metadata: { from: user.roleId, to: roleId, via: "sso" },
      },
      tx,
    );
  });
}

async function createJitUser(identity: TIdentity, roleId: string, context: TRequestContext): Promise<string> {
  try {
    return await inTransaction(async (tx) => {
      const user = await tx.user.create({
        data: {
          email: identity.email,
          name: identity.name ?? identity.email.split("@")[0]!,
          roleId,
          passwordHash: noPasswordHash,
        },
      });
      await recordAudit(
        {
          ...auditFieldsOf({ ...context, actor: { id: user.id, email: user.email } }, "user", user.id),
          action: "user.created",
          metadata: { email: user.email, roleId, via: "sso" },
        },
        tx,
      );
      return user.id;
    });
  } catch (error) {
    // Two first sign-ins at once: the other one created the account.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new SsoRefused("invalidState", "duplicate");
    }
    throw error;
  }
}

async function userIdFor(
  identity: TIdentity,
  settings: TSsoSettings,
  invitationTokenHash: string | null,
  context: TRequestContext,
  now: Date,
): Promise<string> {
  if (invitationTokenHash) {
    const accepted = await acceptInvitationWithoutPassword(invitationTokenHash, identity.email, context, now);
    if (accepted.status !== "accepted") throw new SsoRefused(accepted.status);
    return accepted.userId;
  }
  const roleId = await mappedRoleId(settings, identity.groups);
  const user = await db.user.findUnique({ where: { email: identity.email } });
  if (user) {
    if (!user.isActive) throw new SsoRefused("inactive");
    await applyMappedRole(user, roleId, context);
    return user.id;
  }
  if (!settings.allowedDomains.includes(emailDomain(identity.email))) throw new SsoRefused("unknownDomain");
  const jitRoleId = roleId ?? settings.defaultRoleId;
  if (!jitRoleId) throw new SsoRefused("noRole");
  return createJitUser(identity, jitRoleId, context);
}

// The callback: refusals are audited and change nothing but the spent attempt.
export async function finishSsoSignIn(
  callbackUrl: URL,
  browserSecret: string | undefined,
  context: TRequestContext,
  now = new Date(),
): Promise<TSsoOutcome> {
  let email: string | null = null;
  try {
    const settings = await getSsoClientConfig();
    if (!settings) throw new SsoRefused("notConfigured");
    const attempt = await consumeAttempt(callbackUrl.searchParams.get("state"), browserSecret, now);
    const identity = await verifiedIdentity(callbackUrl, attempt, settings, now);
    email = identity.email;
    const userId = await userIdFor(identity, settings, attempt.invitationTokenHash, context, now);
    return { status: "ticket", ticket: await issueTicket(userId, now) };
  } catch (error) {
    if (!(error instanceof SsoRefused)) throw error;
    await recordAudit({
      actor: email ? { id: null, email } : null,
      action: "auth.sign_in_failed",
      resourceType: "user",
      ip: context.ip,
      userAgent: context.userAgent,
      metadata: { method: "sso", reason: error.reason, ...(error.detail ? { detail: error.detail } : {}) },
    });
    return { status: "refused", reason: error.reason };
  }
}
