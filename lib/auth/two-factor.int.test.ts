import { encode } from "next-auth/jwt";
import * as OTPAuth from "otpauth";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { serverEnv } from "@/lib/config/server-env";
import { db } from "@/lib/db/client";
import { setAppSetting } from "@/lib/settings/app-settings";
import { createUser, resetUserTwoFactor } from "@/lib/users/users";
import { verifyPassword } from "./password";
import { signInSpacing } from "./password-attempts";
import { authorize, requireUser } from "./session";
import { getSessionCookie } from "./session-cookie";
import { loadSessionUser } from "./session-user";
import { signInWithPassword } from "./sign-in";
import { confirmTwoFactorEnrolment, disableTwoFactor, recoveryCodeCount, startTwoFactorEnrolment } from "./two-factor";

// Passes through to the real hash; a test whose guesser knows the password skips the hash's cost.
vi.mock("./password", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./password")>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});

const jar = vi.hoisted(() => new Map<string, string>());
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined) }),
  headers: async () => new Headers({ "x-pathname": "/pix" }),
}));

const password = "a long enough password";
const context = { ip: "203.0.113.9", userAgent: "vitest" };
const start = new Date("2026-11-24T12:00:00Z");
const secondsLater = (seconds: number) => new Date(start.getTime() + seconds * 1000);

function codeAt(secret: string, at: Date): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });
}

// A code that none of the steps the server accepts at `at` (one either side) would give.
function wrongCode(secret: string, at: Date): string {
  const accepted = [-30_000, 0, 30_000].map((shift) => codeAt(secret, new Date(at.getTime() + shift)));
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, "0");
    if (!accepted.includes(code)) return code;
  }
}

// What sign-in puts in a session token besides the user (options.ts): the browser session and when it began.
const sessionClaims = () => ({ sid: crypto.randomUUID(), iat: Math.floor(Date.now() / 1000) });

async function createAna(roleId: "operations" | "administrator" = "operations") {
  const { user } = await createUser({ email: "ana@example.com", name: "Ana", roleId, password }, { actor: null });
  return user;
}

// Enrols Ana with a code computed by an authenticator library, as a phone would.
async function enrolAna() {
  const user = await createAna();
  const enrolment = await startTwoFactorEnrolment(user);
  expect(enrolment.otpauthUri).toContain(`secret=${enrolment.secret}`);
  expect(enrolment.qrDataUrl.startsWith("data:image/png;base64,")).toBe(true);
  const actor = { id: user.id, email: user.email };
  const { recoveryCodes } = await confirmTwoFactorEnrolment(
    user.id,
    { enrolmentToken: enrolment.enrolmentToken, code: codeAt(enrolment.secret, start) },
    { actor, ...context },
    start,
  );
  return { user, secret: enrolment.secret, recoveryCodes, actor };
}

const signIn = (code: string | undefined, at: Date, ip = context.ip) =>
  signInWithPassword({ email: "ana@example.com", password, code }, { ...context, ip }, at);

async function actions() {
  return (await db.auditLog.findMany({ orderBy: { occurredAt: "asc" } })).map((entry) => entry.action);
}

describe("two-factor sign-in", () => {
  beforeEach(async () => {
    await db.auditLog.deleteMany();
    await db.rateLimitBucket.deleteMany();
    await db.appSetting.deleteMany();
    await db.user.deleteMany();
    jar.clear();
  });

  it("enrols with a real code, storing the secret sealed and 10 hashed recovery codes", async () => {
    const { user, secret, recoveryCodes } = await enrolAna();
    expect(recoveryCodes).toHaveLength(recoveryCodeCount);
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id }, include: { recoveryCodes: true } });
    expect(stored.totpEnabledAt).toEqual(start);
    expect(stored.totpSecretCiphertext).not.toContain(secret);
    expect(stored.recoveryCodes.map((code) => code.codeHash)).not.toContain(recoveryCodes[0]);
    expect(await actions()).toContain("auth.two_factor_enabled");
  });

  it("refuses enrolment with a wrong code, or a setup sealed for another user", async () => {
    const user = await createAna();
    const enrolment = await startTwoFactorEnrolment(user);
    const change = { actor: { id: user.id, email: user.email }, ...context };
    const wrong = codeAt(enrolment.secret, secondsLater(-300));
    await expect(
      confirmTwoFactorEnrolment(user.id, { enrolmentToken: enrolment.enrolmentToken, code: wrong }, change, start),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED", fieldErrors: { code: "invalidCode" } });
    const other = await startTwoFactorEnrolment({ id: crypto.randomUUID(), email: user.email });
    const code = codeAt(other.secret, start);
    await expect(
      confirmTwoFactorEnrolment(user.id, { enrolmentToken: other.enrolmentToken, code }, change, start),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED", messageKey: "account.security.errors.enrolmentExpired" });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).totpEnabledAt).toBeNull();
  });

  it("asks for a code after the right password, then accepts a right code once", async () => {
    const { secret } = await enrolAna();
    expect(await signIn(undefined, secondsLater(60))).toEqual({ status: "two-factor-required", methods: ["totp"] });
    expect(await signIn(undefined, secondsLater(60))).toEqual({ status: "two-factor-required", methods: ["totp"] });
    // A wrong password never reveals that a code is needed.
    expect(
      await signInWithPassword({ email: "ana@example.com", password: "wrong one!!" }, context, secondsLater(60)),
    ).toEqual({ status: "invalid" });

    const code = codeAt(secret, secondsLater(60));
    expect(await signIn(code, secondsLater(60))).toMatchObject({ status: "signed-in" });
    // The same code again, within its window: refused.
    expect(await signIn(code, secondsLater(70))).toEqual({ status: "invalid" });
    // The enrolment code's step is older than the one used: refused too.
    expect(await signIn(codeAt(secret, start), secondsLater(70))).toEqual({ status: "invalid" });
    // One step of clock drift is accepted.
    expect(await signIn(codeAt(secret, secondsLater(120)), secondsLater(150))).toMatchObject({ status: "signed-in" });
  }, 180_000);

  it("accepts each recovery code once, and records it", async () => {
    const { recoveryCodes } = await enrolAna();
    const [first] = recoveryCodes;
    expect(await signIn(first!.toUpperCase(), secondsLater(60))).toMatchObject({ status: "signed-in" });
    expect(await signIn(first, secondsLater(90))).toEqual({ status: "invalid" });
    expect(await actions()).toContain("auth.recovery_code_used");
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "auth.recovery_code_used" } });
    expect(entry.metadata).toEqual({ remaining: recoveryCodeCount - 1 });
  });

  it("counts wrong codes with the password limiter, even with the right password, and spaces them out", async () => {
    const { secret } = await enrolAna();
    for (let attempt = 0; attempt < signInSpacing.account.freeAttempts; attempt += 1) {
      expect(await signIn(wrongCode(secret, secondsLater(60)), secondsLater(60), `198.51.100.${attempt}`)).toEqual({
        status: "invalid",
      });
      // Asking again without a code neither counts nor clears what the wrong codes counted.
      if (attempt < signInSpacing.account.freeAttempts - 1) {
        expect(await signIn(undefined, secondsLater(60), `198.51.100.${attempt}`)).toEqual({
          status: "two-factor-required",
          methods: ["totp"],
        });
      }
    }
    const right = codeAt(secret, secondsLater(60));
    expect(await signIn(right, secondsLater(60), "198.51.100.99")).toEqual({
      status: "rate-limited",
      retryAfterSeconds: 1,
    });
    expect(await actions()).toContain("auth.sign_in_rate_limited");
    expect(await signIn(right, secondsLater(61), "198.51.100.99")).toMatchObject({ status: "signed-in" });
  }, 180_000);

  it("lets the owner in from another address shortly after a stranger's 25 wrong codes", async () => {
    const { secret } = await enrolAna();
    // The stranger knows the password (else no code is ever checked) and guesses codes from one address, each as
    // soon as the limiter lets it.
    const stranger = "198.51.100.66";
    vi.mocked(verifyPassword).mockResolvedValue(true);
    let now = secondsLater(60).getTime();
    let wrongCodes = 0;
    while (wrongCodes < 25) {
      const result = await signIn(wrongCode(secret, new Date(now)), new Date(now), stranger);
      if (result.status === "rate-limited") now += result.retryAfterSeconds * 1000;
      else wrongCodes += 1;
    }
    vi.mocked(verifyPassword).mockReset();
    const ownerAt = new Date(now + signInSpacing.account.maxDelayMs);
    const strangerAgain = await signIn(wrongCode(secret, ownerAt), ownerAt, stranger);
    expect(strangerAgain).toMatchObject({ status: "rate-limited" });
    expect((strangerAgain as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(30 * 60);
    // The owner waits at most the account's cap (5 minutes) after the stranger's last try, whatever came before.
    expect(await signIn(codeAt(secret, ownerAt), ownerAt, "192.0.2.10")).toMatchObject({ status: "signed-in" });
  });

  it("ends the user's other sessions when turned on or off, and gives the version for this one", async () => {
    const user = await createAna();
    const otherBrowser = { sub: user.id, sessionVersion: 1, ...sessionClaims() };
    expect(await loadSessionUser(otherBrowser)).not.toBeNull();
    const enrolment = await startTwoFactorEnrolment(user);
    const change = { actor: { id: user.id, email: user.email }, ...context };
    const code = codeAt(enrolment.secret, start);
    const enabled = await confirmTwoFactorEnrolment(
      user.id,
      { enrolmentToken: enrolment.enrolmentToken, code },
      change,
      start,
    );
    expect(enabled.sessionVersion).toBe(2);
    expect(await loadSessionUser(otherBrowser)).toBeNull();
    const thisBrowser = { sub: user.id, sessionVersion: enabled.sessionVersion, ...sessionClaims() };
    expect(await loadSessionUser(thisBrowser)).not.toBeNull();

    const disabled = await disableTwoFactor(
      user.id,
      { code: codeAt(enrolment.secret, secondsLater(60)) },
      change,
      secondsLater(60),
    );
    expect(disabled.sessionVersion).toBe(3);
    expect(await loadSessionUser(thisBrowser)).toBeNull();
  });

  it("turns off only with a current code", async () => {
    const { user, secret, actor } = await enrolAna();
    const change = { actor, ...context };
    await expect(disableTwoFactor(user.id, { code: "123456" }, change, secondsLater(60))).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    await disableTwoFactor(user.id, { code: codeAt(secret, secondsLater(60)) }, change, secondsLater(60));
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id }, include: { recoveryCodes: true } });
    expect(stored).toMatchObject({ totpEnabledAt: null, totpSecretCiphertext: null, recoveryCodes: [] });
    expect(await actions()).toContain("auth.two_factor_disabled");
    expect(await signIn(undefined, secondsLater(90))).toMatchObject({ status: "signed-in" });
  });
});

describe("two-factor requirement setting", () => {
  beforeEach(async () => {
    await db.auditLog.deleteMany();
    await db.appSetting.deleteMany();
    await db.user.deleteMany();
    jar.clear();
  });

  async function signInAs(roleId: "operations" | "administrator") {
    const user = await createAna(roleId);
    const token = { sub: user.id, email: user.email, name: user.name, roleId, sessionVersion: 1 };
    jar.set(getSessionCookie().name, await encode({ token, secret: serverEnv.AUTH_SECRET }));
    return user;
  }

  const redirectTo = (path: string) => ({ digest: expect.stringContaining(`;${path};`) });

  it("sends a user who has not enrolled to the enrolment page and lets them do nothing else", async () => {
    const admin = await signInAs("administrator");
    expect((await requireUser()).mustEnrollTwoFactor).toBe(false);

    await setAppSetting("twoFactorRequirement", "admins", { actor: { id: admin.id, email: admin.email } });
    expect(await actions()).toEqual(["user.created", "settings.changed"]);
    await expect(requireUser()).rejects.toMatchObject(redirectTo("/account/security"));
    await expect(authorize(null)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await requireUser({ allowTwoFactorEnrolment: true })).toMatchObject({ mustEnrollTwoFactor: true });
  });

  it("applies to roles holding users.manage only or to everyone, as set", async () => {
    await signInAs("operations");
    await setAppSetting("twoFactorRequirement", "admins", { actor: null });
    expect(await requireUser()).toMatchObject({ mustEnrollTwoFactor: false });
    await setAppSetting("twoFactorRequirement", "everyone", { actor: null });
    await expect(requireUser()).rejects.toMatchObject(redirectTo("/account/security"));
  });

  it("lets an enrolled user through", async () => {
    await setAppSetting("twoFactorRequirement", "everyone", { actor: null });
    const user = await signInAs("operations");
    const enrolment = await startTwoFactorEnrolment(user);
    const code = codeAt(enrolment.secret, new Date());
    const { sessionVersion } = await confirmTwoFactorEnrolment(
      user.id,
      { enrolmentToken: enrolment.enrolmentToken, code },
      { actor: null },
    );
    // Enrolling ended the session the cookie held; the action re-issues it with the new version (renewSession).
    await expect(requireUser()).rejects.toMatchObject({ digest: expect.stringContaining(";/login?") });
    const token = { sub: user.id, email: user.email, sessionVersion };
    jar.set(getSessionCookie().name, await encode({ token, secret: serverEnv.AUTH_SECRET }));
    expect(await requireUser()).toMatchObject({ id: user.id, mustEnrollTwoFactor: false });
  });
});

describe("an admin resets a user's lost two-factor", () => {
  beforeEach(async () => {
    await db.auditLog.deleteMany();
    await db.rateLimitBucket.deleteMany();
    await db.appSetting.deleteMany();
    await db.user.deleteMany();
  });

  async function seedAdmin() {
    const { user } = await createUser(
      { email: "admin@example.com", name: "Admin", roleId: "administrator", password },
      { actor: null },
    );
    return { ...context, actor: { id: user.id, email: user.email } };
  }

  it("removes the secret and recovery codes, ends the user's sessions and records who did it", async () => {
    const { user, recoveryCodes } = await enrolAna();
    const admin = await seedAdmin();
    const before = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    const token = { sub: user.id, email: user.email, sessionVersion: before.sessionVersion, ...sessionClaims() };
    expect(await loadSessionUser(token)).not.toBeNull();

    await resetUserTwoFactor(user.id, admin);

    const after = await db.user.findUniqueOrThrow({ where: { id: user.id }, include: { recoveryCodes: true } });
    expect(after).toMatchObject({ totpSecretCiphertext: null, totpEnabledAt: null, totpLastUsedStep: null });
    expect(after.recoveryCodes).toEqual([]);
    expect(after.sessionVersion).toBe(before.sessionVersion + 1);
    expect(await loadSessionUser(token)).toBeNull();
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "user.two_factor_reset" } });
    expect(entry).toMatchObject({ actorId: admin.actor.id, resourceType: "user", resourceId: user.id });
    expect(entry.metadata).toEqual({ wasEnabled: true, passkeysRemoved: 0 });

    // The password alone signs in again; an old recovery code is worth nothing.
    expect(await signIn(undefined, secondsLater(60))).toMatchObject({ status: "signed-in" });
    expect(await signIn(recoveryCodes[0], secondsLater(60))).toMatchObject({ status: "signed-in" });
    expect(await db.auditLog.count({ where: { action: "auth.recovery_code_used" } })).toBe(0);
    // And they may enrol again.
    const enrolment = await startTwoFactorEnrolment(user);
    await confirmTwoFactorEnrolment(
      user.id,
      { enrolmentToken: enrolment.enrolmentToken, code: codeAt(enrolment.secret, secondsLater(120)) },
      { actor: { id: user.id, email: user.email }, ...context },
      secondsLater(120),
    );
    expect(await db.recoveryCode.count({ where: { userId: user.id } })).toBe(recoveryCodeCount);
  });

  it("refuses an admin's own reset and an unknown user", async () => {
    const admin = await seedAdmin();
    await expect(resetUserTwoFactor(admin.actor.id, admin)).rejects.toMatchObject({
      code: "CONFLICT",
      fieldErrors: { user: "selfTwoFactorReset" },
    });
    await expect(resetUserTwoFactor("00000000-0000-4000-8000-000000000000", admin)).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await db.auditLog.count({ where: { action: "user.two_factor_reset" } })).toBe(0);
  });
});
