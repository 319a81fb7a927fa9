import { beforeEach, describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db/client";
import { latestLinkMailedTo } from "@/lib/mail/testing";
import {
  acceptInvitation,
  getInvitationByToken,
  invitationTtlMs,
  inviteUser,
  listPendingInvitations,
  resendInvitation,
  revokeInvitation,
} from "./invitations";
import { createUser } from "./users";

const request = { ip: "203.0.113.20", userAgent: "vitest" };
const password = "a long chosen password";

async function seedAdmin() {
  const { user } = await createUser(
    { email: "admin@example.com", name: "Admin", roleId: "administrator", password: "admin password 123" },
    { actor: null },
  );
  await db.user.update({ where: { id: user.id }, data: { locale: "en" } });
  return { ...request, actor: { id: user.id, email: user.email } };
}

async function invite(context: Awaited<ReturnType<typeof seedAdmin>>, email = "bia@example.com") {
  await inviteUser({ email, name: "Bia", roleId: "operations" }, context);
  const token = await latestLinkMailedTo(email, "invite");
  if (!token) throw new Error("no invitation link mailed");
  return token;
}

const auditActions = async () =>
  (await db.auditLog.findMany({ where: { resourceType: "invitation" }, orderBy: { occurredAt: "asc" } })).map(
    (entry) => entry.action,
  );

describe("invitations", () => {
  beforeEach(async () => {
    await db.auditLog.deleteMany();
    await db.mailMessage.deleteMany();
    await db.invitation.deleteMany();
    await db.user.deleteMany();
  });

  it("mails a single-use link, in the inviter's language, and keeps only its hash", async () => {
    const admin = await seedAdmin();
    const token = await invite(admin);
    const stored = await db.invitation.findFirstOrThrow();
    expect(stored.tokenHash).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBeCloseTo(invitationTtlMs, -4);
    expect(await db.mailMessage.findFirst()).toMatchObject({ template: "invitation", locale: "en" });
    expect(await listPendingInvitations()).toMatchObject([{ email: "bia@example.com", isExpired: false }]);
    expect(await getInvitationByToken(token)).toMatchObject({ state: "valid", email: "bia@example.com" });

    await acceptInvitation(token, password, request);
    const user = await db.user.findUniqueOrThrow({ where: { email: "bia@example.com" } });
    expect(user).toMatchObject({ roleId: "operations", mustChangePassword: false, isActive: true });
    expect(await verifyPassword(password, user.passwordHash)).toBe(true);
    expect(await listPendingInvitations()).toEqual([]);
    expect(await auditActions()).toEqual(["invitation.created", "invitation.accepted"]);
  }, 60_000);

  it("refuses a reused, unknown or expired link and changes nothing", async () => {
    const admin = await seedAdmin();
    const token = await invite(admin);
    await acceptInvitation(token, password, request);
    const before = await db.user.findUniqueOrThrow({ where: { email: "bia@example.com" } });

    await expect(acceptInvitation(token, "another long password", request)).rejects.toMatchObject({
      messageKey: "auth.invite.invalid",
    });
    await expect(acceptInvitation("x".repeat(43), password, request)).rejects.toMatchObject({
      messageKey: "auth.invite.invalid",
    });
    expect(await db.user.findUniqueOrThrow({ where: { email: "bia@example.com" } })).toEqual(before);
    expect(await getInvitationByToken(token)).toEqual({ state: "invalid" });

    const late = await invite(admin, "caio@example.com");
    const later = new Date(Date.now() + invitationTtlMs + 1000);
    expect(await getInvitationByToken(late, later)).toEqual({ state: "expired" });
    await expect(acceptInvitation(late, password, request, later)).rejects.toMatchObject({
      messageKey: "auth.invite.expired",
    });
    expect(await db.user.findUnique({ where: { email: "caio@example.com" } })).toBeNull();
  }, 60_000);

  it("resending replaces the link; revoking kills it; both are audited", async () => {
    const admin = await seedAdmin();
    const first = await invite(admin);
    const { id } = await db.invitation.findFirstOrThrow();
    await resendInvitation(id, admin);
    const second = await latestLinkMailedTo("bia@example.com", "invite");
    expect(second).not.toBe(first);
    expect(await getInvitationByToken(first)).toEqual({ state: "invalid" });
    expect(await getInvitationByToken(second!)).toMatchObject({ state: "valid" });

    await revokeInvitation(id, admin);
    expect(await getInvitationByToken(second!)).toEqual({ state: "invalid" });
    await expect(resendInvitation(id, admin)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await auditActions()).toEqual(["invitation.created", "invitation.resent", "invitation.revoked"]);
    expect(await db.mailMessage.count()).toBe(2);
  });

  it("refuses an address that already has an account", async () => {
    const admin = await seedAdmin();
    await expect(
      inviteUser({ email: "ADMIN@example.com", name: "Again", roleId: "operations" }, admin),
    ).rejects.toMatchObject({ code: "CONFLICT", fieldErrors: { email: "emailTaken" } });
    expect(await db.mailMessage.count()).toBe(0);
  });
});
