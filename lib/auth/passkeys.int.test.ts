import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { setAppSetting } from "@/lib/settings/app-settings";
import { useAppDatabase } from "@/lib/testing/pglite";
import { SoftwareAuthenticator } from "@/lib/testing/software-authenticator";
import { type TTestBackend, testBackends } from "@/lib/testing/test-database";
import { createUser, resetUserTwoFactor, setUserActive } from "@/lib/users/users";
import { ZAuthenticationResponse } from "./passkey-assertion";
import { signInWithPasskey } from "./passkey-sign-in";
import {
  finishPasskeyRegistration,
  listPasskeys,
  removePasskey,
  renamePasskey,
  startPasskeyRegistration,
  startPasskeySignIn,
} from "./passkeys";
import { loadSessionUser } from "./session-user";
import { signInWithPassword } from "./sign-in";

// Passkeys need a name to bind to (browsers refuse an IP address); read before anything loads the server env.
const origin = "http://localhost:3999";
vi.hoisted(() => {
  process.env.APP_URL = "http://localhost:3999";
});

const password = "a long enough password";
const start = new Date("2026-11-27T12:00:00Z");
const later = (seconds: number) => new Date(start.getTime() + seconds * 1000);
const requestContext = { ip: "203.0.113.44", userAgent: "vitest" };

async function createMember(email: string, roleId = "operations") {
  const { user } = await createUser({ email, name: email.split("@")[0]!, roleId, password }, { actor: null });
  return { user, context: { actor: { id: user.id, email: user.email }, ...requestContext } };
}

async function registerPasskey(member: Awaited<ReturnType<typeof createMember>>, name = "Laptop") {
  const authenticator = new SoftwareAuthenticator(origin);
  const options = await startPasskeyRegistration(member.user.id, { password }, member.context, start);
  const response = authenticator.register(options);
  await finishPasskeyRegistration(member.user.id, { name, response }, member.context, start);
  return authenticator;
}

async function assertion(authenticator: SoftwareAuthenticator, at: Date, options?: { isUserVerified: boolean }) {
  const challenge = await startPasskeySignIn(requestContext.ip, at);
  return ZAuthenticationResponse.parse(authenticator.assert(challenge, options));
}

const auditActions = async () =>
  (await db.auditLog.findMany({ orderBy: { occurredAt: "asc" } })).map((entry) => entry.action);

describe.each<TTestBackend>(testBackends)("passkeys (%s)", (backend) => {
  useAppDatabase(backend);

  beforeEach(async () => {
    await db.webAuthnChallenge.deleteMany();
    await db.passkey.deleteMany();
    await db.sessionActivity.deleteMany();
    await db.auditLog.deleteMany();
    await db.rateLimitBucket.deleteMany();
    await db.appSetting.deleteMany();
    await db.user.deleteMany();
  });

  it("adds a passkey only after the password, audits it and ends the other sessions", async () => {
    const member = await createMember("ana@example.com");
    const before = await db.user.findUniqueOrThrow({ where: { id: member.user.id } });
    await expect(
      startPasskeyRegistration(member.user.id, { password: "not the password" }, member.context, start),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED", fieldErrors: { password: "wrongPassword" } });
    await registerPasskey(member, "  Phone  ");
    const [passkey] = await listPasskeys(member.user.id);
    expect(passkey).toMatchObject({ name: "Phone", lastUsedAt: null });
    const user = await db.user.findUniqueOrThrow({ where: { id: member.user.id } });
    expect(user.sessionVersion).toBe(before.sessionVersion + 1);
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "auth.passkey_added" } });
    expect(entry).toMatchObject({ actorId: member.user.id, resourceId: member.user.id });
    expect(entry.metadata).toMatchObject({ passkeyId: passkey!.id, name: "Phone" });
  });

  it("refuses a registration challenge issued to someone else, and uses each challenge once", async () => {
    const ana = await createMember("ana@example.com");
    const bia = await createMember("bia@example.com");
    const authenticator = new SoftwareAuthenticator(origin);
    const options = await startPasskeyRegistration(ana.user.id, { password }, ana.context, start);
    const response = authenticator.register(options);
    await expect(
      finishPasskeyRegistration(bia.user.id, { name: "Stolen", response }, bia.context, start),
    ).rejects.toMatchObject({ messageKey: "account.passkeys.errors.registrationFailed" });
    await finishPasskeyRegistration(ana.user.id, { name: "Laptop", response }, ana.context, start);
    await expect(
      finishPasskeyRegistration(ana.user.id, { name: "Again", response }, ana.context, start),
    ).rejects.toMatchObject({ messageKey: "account.passkeys.errors.registrationFailed" });
    expect(await db.passkey.count()).toBe(1);
  });

  it("signs in with the passkey alone, as a password sign-in would, and counts the use", async () => {
    const member = await createMember("ana@example.com");
    const authenticator = await registerPasskey(member);
    const result = await signInWithPasskey(await assertion(authenticator, later(10)), requestContext, later(10));
    expect(result).toMatchObject({ status: "signed-in", user: { id: member.user.id, email: "ana@example.com" } });
    const passkey = await db.passkey.findFirstOrThrow();
    expect(passkey.counter).toBe(BigInt(authenticator.counter));
    expect(passkey.lastUsedAt).toEqual(later(10));
    const signIn = await db.auditLog.findFirstOrThrow({ where: { action: "auth.sign_in" } });
    expect(signIn.metadata).toEqual({ method: "passkey", passkeyId: passkey.id });
    expect((await db.user.findUniqueOrThrow({ where: { id: member.user.id } })).lastSignInAt).toEqual(later(10));
  });

  it("takes a sign-in challenge once and not after it expires", async () => {
    const member = await createMember("ana@example.com");
    const authenticator = await registerPasskey(member);
    const response = await assertion(authenticator, later(10));
    expect((await signInWithPasskey(response, requestContext, later(11))).status).toBe("signed-in");
    expect(await signInWithPasskey(response, requestContext, later(12))).toEqual({ status: "invalid" });

    const stale = await assertion(authenticator, later(20));
    expect(await signInWithPasskey(stale, requestContext, later(20 + 5 * 60 + 1))).toEqual({ status: "invalid" });
    const failures = await db.auditLog.findMany({ where: { action: "auth.sign_in_failed" } });
    expect(failures.map((entry) => entry.metadata)).toEqual([
      expect.objectContaining({ reason: "passkey_not_verified" }),
      expect.objectContaining({ reason: "passkey_not_verified" }),
    ]);
  });

  it("refuses a counter that did not rise (a cloned authenticator), audits it and keeps the stored counter", async () => {
    const member = await createMember("ana@example.com");
    const authenticator = await registerPasskey(member);
    await signInWithPasskey(await assertion(authenticator, later(10)), requestContext, later(10));
    await signInWithPasskey(await assertion(authenticator, later(20)), requestContext, later(20));
    const stored = (await db.passkey.findFirstOrThrow()).counter;
    expect(stored).toBe(2n);

    authenticator.counter = 0;
    const cloned = await assertion(authenticator, later(30));
    expect(await signInWithPasskey(cloned, requestContext, later(30))).toEqual({ status: "passkey-counter-regressed" });
    expect((await db.passkey.findFirstOrThrow()).counter).toBe(stored);
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "auth.passkey_counter_regressed" } });
    expect(entry.metadata).toMatchObject({ storedCounter: 2, receivedCounter: 1 });
    expect(await auditActions()).not.toContain("auth.sign_in_failed");
    expect(await db.auditLog.count({ where: { action: "auth.sign_in" } })).toBe(2);
  });

  it("refuses a passkey without user verification, and a deactivated user", async () => {
    const member = await createMember("ana@example.com");
    const admin = await createMember("admin@example.com", "administrator");
    const authenticator = await registerPasskey(member);
    const unverified = await assertion(authenticator, later(10), { isUserVerified: false });
    expect(await signInWithPasskey(unverified, requestContext, later(10))).toEqual({ status: "invalid" });

    await setUserActive(member.user.id, false, admin.context);
    expect(await signInWithPasskey(await assertion(authenticator, later(20)), requestContext, later(20))).toEqual({
      status: "invalid",
    });
    const reasons = (await db.auditLog.findMany({ where: { action: "auth.sign_in_failed" } })).map(
      (entry) => (entry.metadata as { reason: string }).reason,
    );
    expect(reasons).toEqual(["passkey_not_verified", "inactive"]);
  });

  it("asks for the passkey after the password, takes it as the second factor, and only the user's own", async () => {
    const ana = await createMember("ana@example.com");
    const bia = await createMember("bia@example.com");
    const anaKey = await registerPasskey(ana);
    const biaKey = await registerPasskey(bia);
    const credentials = { email: "ana@example.com", password };

    expect(await signInWithPassword(credentials, requestContext, later(10))).toEqual({
      status: "two-factor-required",
      methods: ["passkey"],
    });
    const withBias = await assertion(biaKey, later(20));
    expect(await signInWithPassword({ ...credentials, passkey: withBias }, requestContext, later(20))).toEqual({
      status: "invalid",
    });
    const withAnas = await assertion(anaKey, later(30));
    expect(await signInWithPassword({ ...credentials, passkey: withAnas }, requestContext, later(30))).toMatchObject({
      status: "signed-in",
      user: { id: ana.user.id },
    });
    expect(await signInWithPassword({ ...credentials, code: "123456" }, requestContext, later(40))).toEqual({
      status: "invalid",
    });
  });

  it("counts as the second factor the admin setting requires", async () => {
    const member = await createMember("ana@example.com");
    await setAppSetting("twoFactorRequirement", "everyone", { actor: null });
    const sessionOf = async () => {
      const { sessionVersion } = await db.user.findUniqueOrThrow({ where: { id: member.user.id } });
      return { sub: member.user.id, sessionVersion, sid: crypto.randomUUID(), iat: Math.floor(Date.now() / 1000) };
    };
    expect(await loadSessionUser(await sessionOf())).toMatchObject({ mustEnrollTwoFactor: true });
    await registerPasskey(member);
    expect(await loadSessionUser(await sessionOf())).toMatchObject({ mustEnrollTwoFactor: false });
  });

  it("renames and removes (with the password), audited; an admin's two-factor reset removes passkeys too", async () => {
    const member = await createMember("ana@example.com");
    const admin = await createMember("admin@example.com", "administrator");
    await registerPasskey(member, "Laptop");
    await registerPasskey(member, "Phone");
    const [laptop, phone] = await listPasskeys(member.user.id);
    await renamePasskey(member.user.id, { id: laptop!.id, name: "Work laptop" }, member.context);
    await expect(renamePasskey(admin.user.id, { id: laptop!.id, name: "Mine" }, admin.context)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      removePasskey(member.user.id, { id: laptop!.id, password: "wrong" }, member.context),
    ).rejects.toMatchObject({ fieldErrors: { password: "wrongPassword" } });
    await removePasskey(member.user.id, { id: laptop!.id, password }, member.context);
    expect((await listPasskeys(member.user.id)).map((passkey) => passkey.name)).toEqual([phone!.name]);
    expect(await auditActions()).toEqual(expect.arrayContaining(["auth.passkey_renamed", "auth.passkey_removed"]));

    await resetUserTwoFactor(member.user.id, admin.context);
    expect(await db.passkey.count()).toBe(0);
    const reset = await db.auditLog.findFirstOrThrow({ where: { action: "user.two_factor_reset" } });
    expect(reset.metadata).toMatchObject({ passkeysRemoved: 1 });
  });
});
