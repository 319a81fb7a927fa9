import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ZAuthenticationResponse } from "@/lib/auth/passkey-assertion";
import { signInWithPasskey } from "@/lib/auth/passkey-sign-in";
import { finishPasskeyRegistration, startPasskeyRegistration, startPasskeySignIn } from "@/lib/auth/passkeys";
import { noPasswordHash } from "@/lib/auth/password";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { signInWithSsoTicket } from "@/lib/auth/sso-sign-in";
import { makeIndependentApprover } from "@/lib/cli/seed-approver";
import { db } from "@/lib/db/client";
import { latestLinkMailedTo } from "@/lib/mail/testing";
import { signInAtProvider, startOidcProvider, type TTestOidcProvider } from "@/lib/testing/oidc-provider";
import { useAppDatabase } from "@/lib/testing/pglite";
import { SoftwareAuthenticator } from "@/lib/testing/software-authenticator";
import { type TTestBackend, testBackends } from "@/lib/testing/test-database";
import { inviteUser } from "@/lib/users/invitations";
import { createUser, setUserActive } from "@/lib/users/users";
import { finishSsoSignIn, startSsoSignIn } from "./flow";
import { getSsoSettings, saveSsoSettings, type TSsoSettingsInput } from "./settings";

const appUrl = "http://localhost:3998";
vi.hoisted(() => {
  process.env.APP_URL = "http://localhost:3998";
});

const password = "a long enough password";
const context = { ip: "203.0.113.60", userAgent: "vitest" };
const minutes = (count: number) => new Date(Date.now() + count * 60_000);

let provider: TTestOidcProvider;

beforeAll(async () => {
  provider = await startOidcProvider({ redirectUris: [`${appUrl}/api/auth/sso/callback`] });
});
afterAll(() => provider.close());

async function createMember(email: string, roleId: string) {
  const { user } = await createUser({ email, name: email.split("@")[0]!, roleId, password }, { actor: null });
  return user;
}

function settingsFor(owner: { id: string }, change: Partial<TSsoSettingsInput> = {}): TSsoSettingsInput {
  return {
    isEnabled: true,
    issuerUrl: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    groupsClaim: "groups",
    groupRoles: [
      { group: "finance", roleId: "analyst" },
      { group: "helpdesk", roleId: "support" },
    ],
    defaultRoleId: null,
    allowedDomains: ["acme.test"],
    ssoOnlyDomains: ["acme.test"],
    breakGlassOwnerId: owner.id,
    requireVerifiedEmail: true,
    ...change,
  };
}

// The browser's trip: the start route, the provider's login form, then the callback with the starting cookie.
async function tripToProvider(login: string, options: { invitationToken?: string } = {}) {
  const started = await startSsoSignIn({ ...options, ip: context.ip });
  if (started.status !== "redirect") throw new Error(`refused at the start: ${started.reason}`);
  const back = await signInAtProvider(started.url, login);
  expect(back.origin + back.pathname).toBe(`${appUrl}/api/auth/sso/callback`);
  return { started, callbackUrl: new URL(`/api/auth/sso/callback${back.search}`, appUrl) };
}

async function ssoSignIn(login: string, options: { invitationToken?: string } = {}) {
  const { started, callbackUrl } = await tripToProvider(login, options);
  return finishSsoSignIn(callbackUrl, started.browserSecret, context);
}

const counts = async () => ({
  users: await db.user.count(),
  tickets: await db.ssoSignInTicket.count(),
});

describe.each<TTestBackend>(testBackends)("single sign-on (%s)", (backend) => {
  useAppDatabase(backend);
  let owner: Awaited<ReturnType<typeof createMember>>;

  beforeEach(async () => {
    await db.ssoSignInTicket.deleteMany();
    await db.ssoLoginAttempt.deleteMany();
    await db.knownDevice.deleteMany();
    await db.webAuthnChallenge.deleteMany();
    await db.passkey.deleteMany();
    await db.recoveryCode.deleteMany();
    await db.sessionActivity.deleteMany();
    await db.auditLog.deleteMany();
    await db.rateLimitBucket.deleteMany();
    await db.appSetting.deleteMany();
    await db.invitation.deleteMany();
    await db.mailMessage.deleteMany();
    await db.user.deleteMany();
    owner = await createMember("owner@acme.test", "owner");
    await saveSsoSettings(settingsFor(owner), { actor: { id: owner.id, email: owner.email }, ...context });
  });

  it("keeps the client secret sealed, audits the change and refuses a role beyond the admin's own", async () => {
    const row = await db.appSetting.findUniqueOrThrow({ where: { key: "sso" } });
    expect(JSON.stringify(row.value)).not.toContain(provider.clientSecret);
    expect(await getSsoSettings()).toMatchObject({ hasClientSecret: true, clientId: provider.clientId });
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "sso.settings_changed" } });
    expect(JSON.stringify(entry.metadata)).not.toContain(provider.clientSecret);
    expect(JSON.stringify(entry.metadata)).not.toContain("clientSecretBox");
    expect(entry.metadata).toMatchObject({ isSecretReplaced: true, after: { hasClientSecret: true } });

    const support = await createMember("sam@acme.test", "support");
    await expect(
      saveSsoSettings(settingsFor(owner, { clientSecret: "", defaultRoleId: "analyst" }), {
        actor: { id: support.id, email: support.email },
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN", messageKey: "roles.errors.beyondYours" });
    await expect(
      saveSsoSettings(settingsFor(owner, { groupRoles: [{ group: "it", roleId: "administrator" }] }), {
        actor: { id: owner.id, email: owner.email },
      }),
    ).rejects.toMatchObject({ fieldErrors: { groupRoles: "administrationRole" } });
    await expect(
      saveSsoSettings(settingsFor(owner, { breakGlassOwnerId: support.id }), { actor: null }),
    ).rejects.toMatchObject({ fieldErrors: { breakGlassOwnerId: "breakGlassNotOwner" } });
    await expect(
      saveSsoSettings(settingsFor(owner, { issuerUrl: "http://idp.example.com" }), { actor: null }),
    ).rejects.toThrow();
  });

  it("signs an existing person in and gives them the role their group maps to", async () => {
    const bob = await createMember("bob@acme.test", "operations");
    const { sessionVersion } = await db.user.findUniqueOrThrow({ where: { id: bob.id } });
    provider.setAccount("bob", { email: "Bob@acme.test", email_verified: true, groups: ["staff", "finance"] });
    const outcome = await ssoSignIn("bob");
    expect(outcome.status).toBe("ticket");
    const after = await db.user.findUniqueOrThrow({ where: { id: bob.id } });
    expect(after).toMatchObject({ roleId: "analyst", sessionVersion: sessionVersion + 1 });
    const changed = await db.auditLog.findFirstOrThrow({ where: { action: "user.role_changed" } });
    expect(changed.metadata).toMatchObject({ from: "operations", to: "analyst", via: "sso" });

    // An administrator's role is not the provider's to change.
    const admin = await createMember("ada@acme.test", "administrator");
    provider.setAccount("ada", { email: "ada@acme.test", email_verified: true, groups: ["finance"] });
    expect((await ssoSignIn("ada")).status).toBe("ticket");
    expect(await db.user.findUniqueOrThrow({ where: { id: admin.id } })).toMatchObject({ roleId: "administrator" });

    const ticket = outcome.status === "ticket" ? outcome.ticket : "";
    const signedIn = await signInWithSsoTicket(ticket, context);
    expect(signedIn).toMatchObject({ status: "signed-in", user: { id: bob.id } });
    const signInEntry = await db.auditLog.findFirstOrThrow({ where: { action: "auth.sign_in" } });
    expect(signInEntry.metadata).toEqual({ method: "sso" });
    // Single use, and no older than 60 seconds.
    expect(await signInWithSsoTicket(ticket, context)).toEqual({ status: "invalid" });
    const late = await ssoSignIn("bob");
    const lateTicket = late.status === "ticket" ? late.ticket : "";
    expect(await signInWithSsoTicket(lateTicket, context, minutes(2))).toEqual({ status: "invalid" });
  });

  it("creates an account at the first sign-in of an allowed domain, without a password", async () => {
    provider.setAccount("carol", {
      email: "carol@acme.test",
      email_verified: true,
      name: "Carol",
      groups: ["helpdesk"],
    });
    const outcome = await ssoSignIn("carol");
    expect(outcome.status).toBe("ticket");
    const carol = await db.user.findUniqueOrThrow({ where: { email: "carol@acme.test" } });
    expect(carol).toMatchObject({ name: "Carol", roleId: "support", passwordHash: noPasswordHash, isActive: true });
    const created = await db.auditLog.findFirstOrThrow({ where: { action: "user.created", resourceId: carol.id } });
    expect(created.metadata).toMatchObject({ email: "carol@acme.test", roleId: "support", via: "sso" });
    expect(await signInWithPassword({ email: "carol@other.test", password: noPasswordHash }, context)).toEqual({
      status: "invalid",
    });
  });

  it("refuses a new person whose groups map to nothing when there is no default role, and uses the default", async () => {
    provider.setAccount("dan", { email: "dan@acme.test", email_verified: true, groups: ["marketing"] });
    expect(await ssoSignIn("dan")).toEqual({ status: "refused", reason: "noRole" });
    expect(await db.user.count({ where: { email: "dan@acme.test" } })).toBe(0);
    await saveSsoSettings(settingsFor(owner, { clientSecret: "", defaultRoleId: "viewer" }), { actor: null });
    expect((await ssoSignIn("dan")).status).toBe("ticket");
    expect(await db.user.findUniqueOrThrow({ where: { email: "dan@acme.test" } })).toMatchObject({ roleId: "viewer" });
  });

  it("refuses an unknown domain and creates nothing", async () => {
    provider.setAccount("mallory", { email: "mallory@elsewhere.test", email_verified: true, groups: ["finance"] });
    const before = await counts();
    expect(await ssoSignIn("mallory")).toEqual({ status: "refused", reason: "unknownDomain" });
    expect(await counts()).toEqual(before);
    const failed = await db.auditLog.findFirstOrThrow({ where: { action: "auth.sign_in_failed" } });
    expect(failed.metadata).toMatchObject({ method: "sso", reason: "unknownDomain" });
  });

  it("refuses an e-mail the provider has not verified", async () => {
    provider.setAccount("vic", { email: "vic@acme.test", email_verified: false, groups: ["finance"] });
    expect(await ssoSignIn("vic")).toEqual({ status: "refused", reason: "emailNotVerified" });
    expect(await db.user.count({ where: { email: "vic@acme.test" } })).toBe(0);
  });

  it("refuses a replayed state and changes nothing", async () => {
    provider.setAccount("erin", { email: "erin@acme.test", email_verified: true, groups: ["finance"] });
    const { started, callbackUrl } = await tripToProvider("erin");
    expect((await finishSsoSignIn(callbackUrl, started.browserSecret, context)).status).toBe("ticket");
    const before = await counts();
    expect(await finishSsoSignIn(callbackUrl, started.browserSecret, context)).toEqual({
      status: "refused",
      reason: "replayed",
    });
    expect(await counts()).toEqual(before);
    // Two callbacks at once with one state: exactly one gets through.
    const second = await tripToProvider("erin");
    const outcomes = await Promise.all([
      finishSsoSignIn(second.callbackUrl, second.started.browserSecret, context),
      finishSsoSignIn(second.callbackUrl, second.started.browserSecret, context),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["refused", "ticket"]);
  });

  it("bounds the attempts one address may start, and stores none past the limit", async () => {
    const starts = await Promise.all(Array.from({ length: 35 }, () => startSsoSignIn({ ip: "198.51.100.7" })));
    expect(starts.filter((started) => started.status === "redirect")).toHaveLength(30);
    expect(starts.filter((started) => started.status === "refused")).toHaveLength(5);
    expect(await db.ssoLoginAttempt.count()).toBe(30);
    expect((await startSsoSignIn({ ip: "198.51.100.8" })).status).toBe("redirect");
  });

  it("refuses an unknown state, another browser's callback and an attempt older than 10 minutes", async () => {
    provider.setAccount("fay", { email: "fay@acme.test", email_verified: true, groups: ["finance"] });
    const { started, callbackUrl } = await tripToProvider("fay");
    const unknown = new URL(callbackUrl);
    unknown.searchParams.set("state", "not-a-state-we-sent");
    expect(await finishSsoSignIn(unknown, started.browserSecret, context)).toEqual({
      status: "refused",
      reason: "invalidState",
    });
    expect(await finishSsoSignIn(callbackUrl, "another-browser", context)).toEqual({
      status: "refused",
      reason: "invalidState",
    });
    expect(await finishSsoSignIn(callbackUrl, started.browserSecret, context, minutes(11))).toEqual({
      status: "refused",
      reason: "expired",
    });
    expect(await db.user.count({ where: { email: "fay@acme.test" } })).toBe(0);
    expect(await db.ssoLoginAttempt.count({ where: { consumedAt: { not: null } } })).toBe(0);
  });

  it("refuses an ID token the provider issued for another client (audience)", async () => {
    provider.setAccount("gus", { email: "gus@acme.test", email_verified: true, groups: ["finance"] });
    const { started, callbackUrl } = await tripToProvider("gus");
    const nonce = new URL(started.url).searchParams.get("nonce")!;
    // Genuine, signed by the same provider, same nonce and person: only the audience differs.
    provider.replaceNextIdToken(await provider.mintIdTokenForOtherClient("gus", nonce));
    expect(await finishSsoSignIn(callbackUrl, started.browserSecret, context)).toEqual({
      status: "refused",
      reason: "providerRefused",
    });
    expect(await db.user.count({ where: { email: "gus@acme.test" } })).toBe(0);
    const failed = await db.auditLog.findFirstOrThrow({ where: { action: "auth.sign_in_failed" } });
    expect(failed.metadata).toMatchObject({ reason: "providerRefused", detail: expect.stringContaining('"aud"') });
  });

  it("refuses passwords in an SSO-only domain, except the break-glass Owner's with two-factor", async () => {
    await createMember("hal@acme.test", "operations");
    expect(await signInWithPassword({ email: "hal@acme.test", password }, context)).toEqual({ status: "sso-required" });
    const otherOwner = await createMember("ivy@acme.test", "owner");
    expect(await signInWithPassword({ email: otherOwner.email, password }, context)).toEqual({
      status: "sso-required",
    });
    await createMember("jo@partner.test", "operations");
    expect((await signInWithPassword({ email: "jo@partner.test", password }, context)).status).toBe("signed-in");

    const secret = await makeIndependentApprover(owner);
    expect(await signInWithPassword({ email: owner.email, password }, context)).toMatchObject({
      status: "two-factor-required",
    });
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
    expect(await signInWithPassword({ email: owner.email, password, code }, context)).toMatchObject({
      status: "signed-in",
      user: { id: owner.id },
    });
  });

  it("refuses a passkey of an SSO-only domain, which a password could still add", async () => {
    const hal = await createMember("hal@acme.test", "operations");
    const authenticator = new SoftwareAuthenticator(appUrl);
    const halContext = { actor: { id: hal.id, email: hal.email }, ...context };
    const options = await startPasskeyRegistration(hal.id, { password }, halContext);
    await finishPasskeyRegistration(hal.id, { name: "Laptop", response: authenticator.register(options) }, halContext);
    const assertion = ZAuthenticationResponse.parse(authenticator.assert(await startPasskeySignIn(context.ip)));
    expect(await signInWithPasskey(assertion, context)).toEqual({ status: "sso-required" });
    const refused = await db.auditLog.findFirstOrThrow({
      where: { action: "auth.sign_in_failed", resourceId: hal.id },
    });
    expect(refused.metadata).toEqual({ reason: "sso_required" });
  });

  it("refuses a deactivated person", async () => {
    const kim = await createMember("kim@acme.test", "operations");
    await setUserActive(kim.id, false, { actor: null });
    provider.setAccount("kim", { email: "kim@acme.test", email_verified: true, groups: ["finance"] });
    expect(await ssoSignIn("kim")).toEqual({ status: "refused", reason: "inactive" });
    expect(await db.user.findUniqueOrThrow({ where: { id: kim.id } })).toMatchObject({ roleId: "operations" });
    expect(await db.ssoSignInTicket.count()).toBe(0);
  });

  it("accepts an invitation through SSO with the invited role, once, and only for the invited e-mail", async () => {
    const ownerContext = { actor: { id: owner.id, email: owner.email }, ...context };
    await inviteUser({ email: "lee@acme.test", name: "Lee", roleId: "developer" }, ownerContext);
    const invitation = await db.invitation.findFirstOrThrow({ where: { email: "lee@acme.test" } });
    const token = (await latestLinkMailedTo("lee@acme.test", "invite"))!;

    provider.setAccount("not-lee", { email: "someone@acme.test", email_verified: true, groups: ["finance"] });
    expect(await ssoSignIn("not-lee", { invitationToken: token })).toEqual({
      status: "refused",
      reason: "invitationEmailMismatch",
    });
    provider.setAccount("lee", { email: "lee@acme.test", email_verified: true, groups: ["finance"] });
    expect((await ssoSignIn("lee", { invitationToken: token })).status).toBe("ticket");
    const lee = await db.user.findUniqueOrThrow({ where: { email: "lee@acme.test" } });
    expect(lee).toMatchObject({ roleId: "developer", passwordHash: noPasswordHash });
    expect(await db.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).toMatchObject({
      acceptedAt: expect.any(Date),
    });
    expect(await startSsoSignIn({ invitationToken: token, ip: context.ip })).toEqual({
      status: "refused",
      reason: "invitationInvalid",
    });
  });
});
