import { beforeEach, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { accountLimitKey, ipLimitKey, signInSpacing } from "@/lib/auth/password-attempts";
import { claimSpacedAttempt } from "@/lib/auth/rate-limit";
import { loadSessionUser } from "@/lib/auth/session-user";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { db } from "@/lib/db/client";
import {
  changeOwnPassword,
  changeUserRole,
  createUser,
  listUsers,
  resetUserPassword,
  setUserActive,
  updateOwnLocale,
} from "./users";

const context = { ip: "203.0.113.9", userAgent: "vitest" };

async function seedAdmin(roleId: "administrator" | "owner" = "administrator") {
  const { user } = await createUser(
    { email: "admin@example.com", name: "Admin", roleId, password: "admin password 123" },
    { actor: null },
  );
  return { user, context: { ...context, actor: { id: user.id, email: user.email } } };
}

async function tokenOf(userId: string) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
  return {
    sub: user.id,
    email: user.email,
    sessionVersion: user.sessionVersion,
    sid: crypto.randomUUID(),
    iat: Math.floor(Date.now() / 1000),
  };
}

describe("users", () => {
  beforeEach(async () => {
    await db.auditLog.deleteMany();
    await db.rateLimitBucket.deleteMany();
    await db.user.deleteMany();
  });

  it("creates a user with a one-time password that is stored only as a hash", async () => {
    const admin = await seedAdmin();
    const { user, oneTimePassword } = await createUser(
      { email: " Bia@Example.com", name: "Bia", roleId: "operations" },
      admin.context,
    );
    expect(user).toMatchObject({
      email: "bia@example.com",
      roleId: "operations",
      isActive: true,
      mustChangePassword: true,
    });
    expect(oneTimePassword).toMatch(/^\w{16}$/);
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword(oneTimePassword!, stored.passwordHash)).toBe(true);
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "user.created", resourceId: user.id } });
    expect(entry).toMatchObject({
      actorId: admin.user.id,
      actorEmail: "admin@example.com",
      resourceType: "user",
      ip: context.ip,
    });
    expect(JSON.stringify(entry.metadata)).not.toContain(oneTimePassword!);
    expect((await listUsers()).map((listed) => listed.email)).toEqual(["admin@example.com", "bia@example.com"]);
  });

  it("refuses a second user with the same email", async () => {
    const admin = await seedAdmin();
    await expect(
      createUser({ email: "ADMIN@example.com", name: "Twin", roleId: "operations" }, admin.context),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      fieldErrors: { email: "emailTaken" },
    });
  });

  it("changes a role, ends the user's sessions and records it", async () => {
    const admin = await seedAdmin();
    const { user } = await createUser({ email: "bia@example.com", name: "Bia", roleId: "operations" }, admin.context);
    const before = await tokenOf(user.id);
    expect(await changeUserRole(user.id, "administrator", admin.context)).toMatchObject({ roleId: "administrator" });
    expect(await loadSessionUser(before)).toBeNull();
    expect(await loadSessionUser(await tokenOf(user.id))).toMatchObject({ roleId: "administrator" });
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "user.role_changed" } });
    expect(entry.metadata).toEqual({ from: "operations", to: "administrator" });
  });

  it("keeps an Owner from demoting or deactivating themself, and keeps one active Owner", async () => {
    const admin = await seedAdmin("owner");
    await expect(changeUserRole(admin.user.id, "operations", admin.context)).rejects.toMatchObject({
      code: "CONFLICT",
      fieldErrors: { user: "selfChange" },
    });
    await expect(setUserActive(admin.user.id, false, admin.context)).rejects.toMatchObject({ code: "CONFLICT" });
    // The shell has no actor: only the last-Owner rule stops it.
    await expect(setUserActive(admin.user.id, false, { actor: null })).rejects.toMatchObject({
      messageKey: "users.errors.lastOwner",
      fieldErrors: { user: "lastOwner" },
    });
    await expect(changeUserRole(admin.user.id, "operations", { actor: null })).rejects.toMatchObject({
      messageKey: "users.errors.lastOwner",
    });
    const { user: second } = await createUser(
      { email: "second@example.com", name: "Second", roleId: "owner" },
      admin.context,
    );
    await changeUserRole(second.id, "operations", admin.context);
    expect(await db.user.findUniqueOrThrow({ where: { id: admin.user.id } })).toMatchObject({
      roleId: "owner",
      isActive: true,
    });
  });

  it("deactivation signs the user out at once; reactivation lets them sign in again", async () => {
    const admin = await seedAdmin();
    const { user } = await createUser({ email: "bia@example.com", name: "Bia", roleId: "operations" }, admin.context);
    const token = await tokenOf(user.id);
    expect(await loadSessionUser(token)).toMatchObject({ id: user.id, email: "bia@example.com", locale: "pt-BR" });
    await setUserActive(user.id, false, admin.context);
    expect(await loadSessionUser(token)).toBeNull();
    await setUserActive(user.id, true, admin.context);
    expect(await loadSessionUser(token)).toBeNull();
    expect(await loadSessionUser(await tokenOf(user.id))).not.toBeNull();
    expect(
      (await db.auditLog.findMany({ where: { resourceId: user.id }, orderBy: { occurredAt: "asc" } })).map(
        (entry) => entry.action,
      ),
    ).toEqual(["user.created", "user.deactivated", "user.reactivated"]);
  });

  it("ignores tokens that do not name a user and version", async () => {
    expect(await loadSessionUser(null)).toBeNull();
    expect(await loadSessionUser({ sub: "not-a-uuid", sessionVersion: 1 })).toBeNull();
    expect(await loadSessionUser({ sub: "6f1c1f9e-8a3b-4c1e-9a59-6f0d2b3c4d5e" })).toBeNull();
  });

  it("resets a password: the old one stops working, sessions end, and a single-use link is mailed", async () => {
    const admin = await seedAdmin();
    const { user } = await createUser(
      { email: "bia@example.com", name: "Bia", roleId: "operations", password: "bia's own password" },
      admin.context,
    );
    const token = await tokenOf(user.id);
    await resetUserPassword(user.id, admin.context);
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword("bia's own password", stored.passwordHash)).toBe(false);
    expect(await loadSessionUser(token)).toBeNull();
    expect(await db.passwordResetToken.count({ where: { userId: user.id, usedAt: null } })).toBe(1);
    // Other tests mail bia too (two-factor notices): the reset link is the one asked for here.
    expect(
      await db.mailMessage.findFirst({ where: { to: "bia@example.com", template: "passwordReset" } }),
    ).toMatchObject({
      status: "SENT",
    });
  });

  it("changes the user's own password only with the current one", async () => {
    const first = "first password 1234";
    const { user } = await createUser(
      { email: "bia@example.com", name: "Bia", roleId: "operations", password: first },
      { actor: null },
    );
    const current = "old password 1234";
    await expect(
      changeOwnPassword(user.id, { currentPassword: "not it at all", newPassword: "a brand new password" }, context),
    ).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: { currentPassword: "wrongPassword" },
    });
    const { sessionVersion } = await changeOwnPassword(
      user.id,
      { currentPassword: first, newPassword: current },
      context,
    );
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored).toMatchObject({ mustChangePassword: false, sessionVersion });
    expect(await verifyPassword(current, stored.passwordHash)).toBe(true);
    expect(
      await db.auditLog.findFirst({ where: { action: "user.password_changed", actorId: user.id } }),
    ).not.toBeNull();
    // Several deliberately slow hashes.
  }, 180_000);

  it("counts wrong current passwords with sign-in's limits, per account and per IP", async () => {
    const current = "the current password";
    const { user } = await createUser(
      { email: "bia@example.com", name: "Bia", roleId: "operations", password: current },
      {
        actor: null,
      },
    );
    const change = (currentPassword: string, ip = context.ip) =>
      changeOwnPassword(user.id, { currentPassword, newPassword: "a brand new password" }, { ...context, ip });
    for (let attempt = 0; attempt < signInSpacing.account.freeAttempts; attempt += 1) {
      // From several addresses: the account limit holds whatever the IP.
      await expect(change("not it at all", `198.51.100.${attempt}`)).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
      });
    }
    // Past the free attempts the next must wait; the hashes above may take longer than the first wait (1 s) on a
    // busy machine, so the account is set to the wait of 12 failures (2 minutes).
    await db.rateLimitBucket.update({
      where: { key: accountLimitKey("bia@example.com") },
      data: { count: 12, lastHitAt: new Date() },
    });
    await expect(change(current)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect(await signInWithPassword({ email: "bia@example.com", password: current }, context)).toMatchObject({
      status: "rate-limited",
    });
    expect(
      await db.auditLog.findFirst({ where: { action: "auth.sign_in_rate_limited", actorId: user.id } }),
    ).toMatchObject({ metadata: { scope: "account", during: "password_change" } });

    // Failures already counted for this IP at sign-in leave only what is left of the IP's tries.
    await db.rateLimitBucket.deleteMany();
    for (let hit = 0; hit < signInSpacing.ip.freeAttempts; hit += 1)
      await claimSpacedAttempt(ipLimitKey(context.ip), signInSpacing.ip);
    await db.rateLimitBucket.update({ where: { key: ipLimitKey(context.ip) }, data: { count: 20 } });
    await expect(change(current)).rejects.toMatchObject({ code: "RATE_LIMITED" });
    await expect(change(current, "192.0.2.1")).resolves.toMatchObject({ sessionVersion: expect.any(Number) });
    // Several deliberately slow hashes.
  }, 180_000);

  it("saves the user's language", async () => {
    const { user } = await createUser(
      { email: "bia@example.com", name: "Bia", roleId: "operations", password: "bia's own password" },
      { actor: null },
    );
    await updateOwnLocale(user.id, "en");
    expect(await loadSessionUser(await tokenOf(user.id))).toMatchObject({ locale: "en" });
    expect(await db.auditLog.findFirstOrThrow({ where: { action: "user.locale_changed" } })).toMatchObject({
      metadata: { from: "pt-BR", to: "en" },
    });
  });
});
