import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { latestLinkMailedTo } from "@/lib/mail/testing";
import { createUser } from "@/lib/users/users";
import { verifyPassword } from "./password";
import {
  forgotPasswordLimits,
  forgotPasswordLinkTtlMs,
  getPasswordResetLink,
  requestPasswordReset,
  resetPasswordWithLink,
} from "./password-reset";

const oldPassword = "the old password 123";
const newPassword = "the new password 456";
let clientCount = 0;
// Each test from its own address, so the per-client limit counts only what the test does.
const client = () => {
  clientCount += 1;
  return { ip: `198.51.100.${clientCount}`, userAgent: "vitest" };
};

async function seedUser(email = "bia@example.com") {
  const { user } = await createUser(
    { email, name: "Bia", roleId: "operations", password: oldPassword },
    { actor: null },
  );
  return db.user.findUniqueOrThrow({ where: { id: user.id } });
}

async function forgot(email: string, context = client()) {
  const { delivery } = await requestPasswordReset(email, context);
  await delivery;
}

describe("forgot password", () => {
  beforeEach(async () => {
    await db.auditLog.deleteMany();
    await db.mailMessage.deleteMany();
    await db.rateLimitBucket.deleteMany();
    await db.user.deleteMany();
  });

  it("answers the same for a known, an unknown and a deactivated address, and mails only the active account", async () => {
    await seedUser();
    const inactive = await seedUser("gone@example.com");
    await db.user.update({ where: { id: inactive.id }, data: { isActive: false } });
    const answers: string[] = [];
    for (const email of ["bia@example.com", "nobody@example.com", "gone@example.com"]) {
      const answer = await requestPasswordReset(email, client());
      answers.push(Object.keys(answer).join());
      await answer.delivery;
    }
    expect(new Set(answers)).toEqual(new Set(["delivery"]));
    expect((await db.mailMessage.findMany()).map((mail) => mail.to)).toEqual(["bia@example.com"]);
  });

  it("limits requests per address and per client, whether or not the address exists", async () => {
    const sameClient = client();
    for (let index = 0; index < forgotPasswordLimits.address.limit; index += 1) {
      await forgot("nobody@example.com", client());
    }
    await expect(forgot("nobody@example.com", client())).rejects.toMatchObject({ code: "RATE_LIMITED" });
    for (let index = 0; index < forgotPasswordLimits.client.limit; index += 1) {
      await forgot(`someone${index}@example.com`, sameClient);
    }
    await expect(forgot("another@example.com", sameClient)).rejects.toMatchObject({
      code: "RATE_LIMITED",
      messageKey: "auth.forgotPassword.rateLimited",
    });
  });

  it("the mailed link sets a new password once, ends other sessions and is audited", async () => {
    const user = await seedUser();
    await forgot(user.email);
    const token = await latestLinkMailedTo(user.email, "reset-password");
    expect(token).not.toBeNull();
    expect(await getPasswordResetLink(token!)).toEqual({ state: "valid", email: user.email });

    await resetPasswordWithLink(token!, newPassword, client());
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.sessionVersion).toBe(user.sessionVersion + 1);
    expect(await verifyPassword(newPassword, stored.passwordHash)).toBe(true);
    expect(await verifyPassword(oldPassword, stored.passwordHash)).toBe(false);
    const actions = (await db.auditLog.findMany({ orderBy: { occurredAt: "asc" } })).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(["user.password_reset_requested", "user.password_reset_completed"]));

    // Used once: a second try changes nothing.
    await expect(resetPasswordWithLink(token!, "yet another password 789", client())).rejects.toMatchObject({
      messageKey: "auth.resetPassword.invalid",
    });
    expect(await db.user.findUniqueOrThrow({ where: { id: user.id } })).toEqual(stored);
  }, 60_000);

  it("refuses an expired or a wrong link and changes nothing", async () => {
    const user = await seedUser();
    await forgot(user.email);
    const token = (await latestLinkMailedTo(user.email, "reset-password"))!;
    const later = new Date(Date.now() + forgotPasswordLinkTtlMs + 1000);
    expect(await getPasswordResetLink(token, later)).toEqual({ state: "expired" });
    await expect(resetPasswordWithLink(token, newPassword, client(), later)).rejects.toMatchObject({
      messageKey: "auth.resetPassword.expired",
    });
    await expect(resetPasswordWithLink(`${token.slice(0, -1)}x`, newPassword, client())).rejects.toMatchObject({
      messageKey: "auth.resetPassword.invalid",
    });
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.sessionVersion).toBe(user.sessionVersion);
    expect(await verifyPassword(oldPassword, stored.passwordHash)).toBe(true);
  }, 60_000);
});
