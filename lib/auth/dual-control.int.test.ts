import { randomUUID } from "node:crypto";
import * as OTPAuth from "otpauth";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { getAppSetting, setAppSetting } from "@/lib/settings/app-settings";
import { useAppDatabase } from "@/lib/testing/pglite";
import { type TTestBackend, testBackends } from "@/lib/testing/test-database";
import {
  approveAdminChange,
  createUserOrHold,
  rejectAdminChange,
  resetUserPasswordOrHold,
  resetUserTwoFactorOrHold,
  setMoneySettingOrHold,
} from "@/lib/users/admin-changes";
import { createUser } from "@/lib/users/users";
import { getApproverStanding } from "./independent-approver";
import { administrationPermission } from "./permissions";
import { sessionIdleTimeoutMs } from "./session-activity";
import { loadSession, loadSessionUser } from "./session-user";
import { confirmTwoFactorEnrolment, startTwoFactorEnrolment } from "./two-factor";

type TAdmin = { id: string; email: string; secret: string | null; enrolmentCode: string | null };

const dayMs = 24 * 60 * 60_000;
const minutes = (count: number) => count * 60_000;
const contextOf = (admin: { id: string; email: string }) => ({
  actor: { id: admin.id, email: admin.email },
  ip: "203.0.113.20",
  userAgent: "vitest",
});
const codeAt = (secret: string, at: Date) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });

// Dual control that is two people, and sessions that end when idle, on the app's own database: PostgreSQL, then
// the embedded PGlite.
describe.each<TTestBackend>(testBackends)("dual control and idle sessions (%s)", (backend) => {
  useAppDatabase(backend);

  beforeEach(async () => {
    await db.pendingAdminChange.deleteMany();
    await db.sessionActivity.deleteMany();
    await db.auditLog.deleteMany();
    await db.rateLimitBucket.deleteMany();
    await db.appSetting.deleteMany();
    await db.user.deleteMany();
  });

  // An admin as the shell command makes one; `ageMs` back-dates the account, `withTwoFactor` enrols a real TOTP.
  async function seedAdmin(email: string, options: { ageMs?: number; withTwoFactor?: boolean } = {}) {
    const { user } = await createUser(
      { email, name: email.split("@")[0]!, roleId: "administrator", password: "a long enough password" },
      { actor: null },
    );
    if (options.ageMs) {
      await db.user.update({ where: { id: user.id }, data: { createdAt: new Date(Date.now() - options.ageMs) } });
    }
    let secret: string | null = null;
    let enrolmentCode: string | null = null;
    if (options.withTwoFactor) {
      const enrolment = await startTwoFactorEnrolment(user);
      secret = enrolment.secret;
      // A step back, so the current step stays free for the approval's own code.
      enrolmentCode = codeAt(secret, new Date(Date.now() - 30_000));
      await confirmTwoFactorEnrolment(
        user.id,
        { enrolmentToken: enrolment.enrolmentToken, code: enrolmentCode },
        { actor: null },
      );
    }
    return { id: user.id, email: user.email, secret, enrolmentCode } satisfies TAdmin;
  }

  const freshCode = (admin: TAdmin) => codeAt(admin.secret!, new Date());

  async function auditActions(prefix: string) {
    const entries = await db.auditLog.findMany({
      where: { action: { startsWith: prefix } },
      orderBy: { occurredAt: "asc" },
    });
    return entries.map((entry) => entry.action);
  }

  it("holds a second admin created by one admin until another, independent admin approves with a fresh code", async () => {
    const first = await seedAdmin("first@example.com", { ageMs: 2 * dayMs, withTwoFactor: true });
    const held = await createUserOrHold(
      { email: "second@example.com", name: "Second", roleId: "administrator" },
      contextOf(first),
    );
    expect(held).toMatchObject({ status: "pending" });
    expect(await db.user.findUnique({ where: { email: "second@example.com" } })).toBeNull();
    const { changeId } = held as { changeId: string };

    // The requester cannot approve their own request, code or not.
    await expect(approveAdminChange(changeId, freshCode(first), contextOf(first))).rejects.toMatchObject({
      code: "FORBIDDEN",
      fieldErrors: { approver: "ownRequest" },
    });

    const other = await seedAdmin("other@example.com", { ageMs: 2 * dayMs, withTwoFactor: true });
    const result = await approveAdminChange(changeId, freshCode(other), contextOf(other));
    expect(result).toMatchObject({ kind: "CREATE_ADMIN", email: "second@example.com" });
    // Approved means invited: the new admin exists once they accept the mailed link.
    expect(await db.invitation.findFirstOrThrow({ where: { email: "second@example.com" } })).toMatchObject({
      roleId: "administrator",
      acceptedAt: null,
    });
    expect(await db.pendingAdminChange.findUniqueOrThrow({ where: { id: changeId } })).toMatchObject({
      status: "APPROVED",
      decidedById: other.id,
    });
    expect(await auditActions("admin_change.")).toEqual(["admin_change.requested", "admin_change.approved"]);
    // Applied once: approving again is refused.
    await expect(approveAdminChange(changeId, freshCode(other), contextOf(other))).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });

  it("refuses an approver created in the last 24 hours, even with two-factor and a right code", async () => {
    const first = await seedAdmin("first@example.com", { ageMs: 2 * dayMs, withTwoFactor: true });
    const { changeId } = (await createUserOrHold(
      { email: "sock@example.com", name: "Sock puppet", roleId: "administrator" },
      contextOf(first),
    )) as { changeId: string };
    const fresh = await seedAdmin("fresh@example.com", { ageMs: dayMs - minutes(5), withTwoFactor: true });
    expect(await getApproverStanding(fresh.id, administrationPermission)).toEqual({
      canApprove: false,
      reason: "newAdmin",
    });
    await expect(approveAdminChange(changeId, freshCode(fresh), contextOf(fresh))).rejects.toMatchObject({
      code: "FORBIDDEN",
      fieldErrors: { approver: "newAdmin" },
    });
    expect(await db.user.findUnique({ where: { email: "sock@example.com" } })).toBeNull();
  });

  it("refuses an approval without a fresh authenticator code, and an approver without two-factor", async () => {
    const first = await seedAdmin("first@example.com", { ageMs: 2 * dayMs, withTwoFactor: true });
    const { changeId } = (await createUserOrHold(
      { email: "new@example.com", name: "New", roleId: "administrator" },
      contextOf(first),
    )) as { changeId: string };

    const withoutFactor = await seedAdmin("nofactor@example.com", { ageMs: 2 * dayMs });
    expect(await getApproverStanding(withoutFactor.id, administrationPermission)).toEqual({
      canApprove: false,
      reason: "twoFactorRequired",
    });
    await expect(approveAdminChange(changeId, "123456", contextOf(withoutFactor))).rejects.toMatchObject({
      code: "FORBIDDEN",
      fieldErrors: { approver: "twoFactorRequired" },
    });

    const approver = await seedAdmin("approver@example.com", { ageMs: 2 * dayMs, withTwoFactor: true });
    await expect(approveAdminChange(changeId, undefined, contextOf(approver))).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: { code: "codeRequired" },
    });
    // The code enrolment used is older than this action: refused.
    await expect(approveAdminChange(changeId, approver.enrolmentCode!, contextOf(approver))).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: { code: "invalidCode" },
    });
    expect(await db.pendingAdminChange.findUniqueOrThrow({ where: { id: changeId } })).toMatchObject({
      status: "PENDING",
    });
    const code = freshCode(approver);
    await approveAdminChange(changeId, code, contextOf(approver));
    // The same code a second time, even for another change: refused.
    const { changeId: next } = (await createUserOrHold(
      { email: "next@example.com", name: "Next", roleId: "administrator" },
      contextOf(first),
    )) as { changeId: string };
    await expect(approveAdminChange(next, code, contextOf(approver))).rejects.toMatchObject({
      fieldErrors: { code: "invalidCode" },
    });
  });

  it("holds resetting another admin's two-factor or password, never lets its target approve, and records a rejection", async () => {
    const first = await seedAdmin("first@example.com", { ageMs: 2 * dayMs, withTwoFactor: true });
    const victim = await seedAdmin("victim@example.com", { ageMs: 2 * dayMs, withTwoFactor: true });
    const held = await resetUserTwoFactorOrHold(victim.id, contextOf(first));
    expect(held).toMatchObject({ status: "pending" });
    expect((await db.user.findUniqueOrThrow({ where: { id: victim.id } })).totpEnabledAt).not.toBeNull();
    const { changeId } = held as { changeId: string };
    await expect(approveAdminChange(changeId, freshCode(victim), contextOf(victim))).rejects.toMatchObject({
      fieldErrors: { approver: "ownAccount" },
    });
    const third = await seedAdmin("third@example.com", { ageMs: 2 * dayMs, withTwoFactor: true });
    await approveAdminChange(changeId, freshCode(third), contextOf(third));
    expect((await db.user.findUniqueOrThrow({ where: { id: victim.id } })).totpEnabledAt).toBeNull();

    const passwordHeld = await resetUserPasswordOrHold(victim.id, contextOf(first));
    expect(passwordHeld).toMatchObject({ status: "pending" });
    await rejectAdminChange((passwordHeld as { changeId: string }).changeId, contextOf(third));
    expect(await auditActions("admin_change.")).toEqual([
      "admin_change.requested",
      "admin_change.approved",
      "admin_change.requested",
      "admin_change.rejected",
    ]);
    expect(await auditActions("user.password_reset")).toEqual([]);

    // An Operations user's reset is not held.
    const { user: staff } = await createUser(
      { email: "staff@example.com", name: "Staff", roleId: "operations" },
      contextOf(first),
    );
    expect(await resetUserTwoFactorOrHold(staff.id, contextOf(first))).toEqual({ status: "reset" });
  });

  it("holds turning the daily money limit off or raising it, and applies tightening at once", async () => {
    const first = await seedAdmin("first@example.com", { ageMs: 2 * dayMs, withTwoFactor: true });
    expect(await setMoneySettingOrHold("dailyMoneyReturnLimitCents", 50_000, contextOf(first))).toEqual({
      status: "saved",
    });
    expect(await getAppSetting("dailyMoneyReturnLimitCents")).toBe(50_000);
    const off = await setMoneySettingOrHold("dailyMoneyReturnLimitCents", 0, contextOf(first));
    expect(off).toMatchObject({ status: "pending" });
    expect(await setMoneySettingOrHold("dailyMoneyReturnLimitCents", 900_000, contextOf(first))).toMatchObject({
      status: "pending",
    });
    expect(await getAppSetting("dailyMoneyReturnLimitCents")).toBe(50_000);
    const other = await seedAdmin("other@example.com", { ageMs: 2 * dayMs, withTwoFactor: true });
    await approveAdminChange((off as { changeId: string }).changeId, freshCode(other), contextOf(other));
    expect(await getAppSetting("dailyMoneyReturnLimitCents")).toBe(0);
  });

  it("lets the shell command (no actor) create an admin at once: the break-glass path", async () => {
    await setAppSetting("dailyMoneyReturnLimitCents", 100_000, { actor: null });
    expect(
      await createUserOrHold({ email: "root@example.com", name: "Root", roleId: "administrator" }, { actor: null }),
    ).toMatchObject({ status: "invited" });
  });

  describe("idle sessions", () => {
    async function sessionOf(startedAt: Date) {
      const admin = await seedAdmin("ana@example.com");
      return { sub: admin.id, sessionVersion: 1, sid: randomUUID(), iat: Math.floor(startedAt.getTime() / 1000) };
    }

    it("refuses a session idle for 16 minutes on its next request, and says why", async () => {
      const t0 = new Date();
      const token = await sessionOf(t0);
      expect(await loadSessionUser(token, t0)).not.toBeNull();
      expect(await loadSession(token, new Date(t0.getTime() + minutes(16)))).toEqual({ status: "idle" });
      // Idle once, idle for good: activity afterwards does not revive it.
      expect(await loadSession(token, new Date(t0.getTime() + minutes(17)))).toEqual({ status: "idle" });
    });

    it("keeps a session in use alive, counting from its last request", async () => {
      const t0 = new Date();
      const token = await sessionOf(t0);
      for (const minute of [5, 10, 19, 28]) {
        expect(await loadSessionUser(token, new Date(t0.getTime() + minutes(minute)))).not.toBeNull();
      }
      expect(
        await loadSessionUser(token, new Date(t0.getTime() + minutes(28) + sessionIdleTimeoutMs + 1000)),
      ).toBeNull();
    });

    it("does not restart the clock for a token re-issued with a new iat but the same session", async () => {
      const t0 = new Date();
      const token = await sessionOf(t0);
      expect(await loadSessionUser(token, t0)).not.toBeNull();
      const later = new Date(t0.getTime() + minutes(20));
      const reissued = { ...token, iat: Math.floor(later.getTime() / 1000), sessionStartedAt: token.iat };
      expect(await loadSession(reissued, later)).toEqual({ status: "idle" });
    });

    it("refuses a never-seen session whose sign-in is older than the idle timeout", async () => {
      const t0 = new Date();
      const token = await sessionOf(new Date(t0.getTime() - minutes(16)));
      expect(await loadSession(token, t0)).toEqual({ status: "idle" });
    });
  });
});
