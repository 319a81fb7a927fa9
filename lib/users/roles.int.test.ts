import { beforeEach, describe, expect, it } from "vitest";
import type { TPermission } from "@/lib/auth/permissions";
import { permissionsOfRole } from "@/lib/auth/roles";
import { loadSession } from "@/lib/auth/session-user";
import { db } from "@/lib/db/client";
import { freshApproverCode, makeIndependentApprover } from "@/lib/testing/independent-approver";
import { useAppDatabase } from "@/lib/testing/pglite";
import { type TTestBackend, testBackends } from "@/lib/testing/test-database";
import { approveAdminChange, updateRoleOrHold } from "./admin-changes";
import { createRole, deleteRole, findRole, updateRole } from "./roles";
import { changeUserRole, createUser, setUserActive } from "./users";

type TPerson = { id: string; email: string };

const contextOf = (person: TPerson) => ({ actor: { id: person.id, email: person.email }, ip: "203.0.113.30" });
const shell = { actor: null };

// Custom roles, the grant rule, the last Owner and role limits under dual control, on PostgreSQL and PGlite.
describe.each<TTestBackend>(testBackends)("roles and permissions (%s)", (backend) => {
  useAppDatabase(backend);

  beforeEach(async () => {
    await db.pendingAdminChange.deleteMany();
    await db.sessionActivity.deleteMany();
    await db.auditLog.deleteMany();
    await db.rateLimitBucket.deleteMany();
    await db.user.deleteMany();
    await db.role.deleteMany({ where: { isBuiltIn: false } });
    await db.role.updateMany({ data: { refundLimitCents: 100_000 } });
  });

  async function seedPerson(name: string, roleId: string): Promise<TPerson> {
    const { user } = await createUser({ email: `${name}@example.com`, name, roleId }, shell);
    return { id: user.id, email: user.email };
  }

  const roleInput = (name: string, permissions: TPermission[], refundLimitCents = 100_000) => ({
    name,
    permissions,
    refundLimitCents,
  });

  const customRoleCount = () => db.role.count({ where: { isBuiltIn: false } });

  async function auditActions() {
    const entries = await db.auditLog.findMany({ orderBy: { occurredAt: "asc" } });
    return entries.map((entry) => entry.action);
  }

  async function tokenOf(userId: string) {
    const { sessionVersion } = await db.user.findUniqueOrThrow({ where: { id: userId } });
    return { sub: userId, sessionVersion, sid: crypto.randomUUID(), iat: Math.floor(Date.now() / 1000) };
  }

  async function permissionsInSession(token: unknown): Promise<readonly TPermission[] | null> {
    const session = await loadSession(token);
    return session.status === "active" ? session.user.permissions : null;
  }

  it("creates a custom role with exactly its checklist, and audits it", async () => {
    const owner = await seedPerson("olga", "owner");
    const created = await createRole(
      roleInput("Refunds desk", ["refunds.request", "payments.view"], 50_000),
      contextOf(owner),
    );
    expect(created).toMatchObject({ name: "Refunds desk", isBuiltIn: false, refundLimitCents: 50_000 });
    expect(await findRole(db, created.id)).toMatchObject({ permissions: ["payments.view", "refunds.request"] });
    expect((await db.role.findUniqueOrThrow({ where: { id: created.id } })).permissions.sort()).toEqual([
      "payments.view",
      "refunds.request",
    ]);
    expect(await db.auditLog.findFirstOrThrow({ where: { action: "role.created" } })).toMatchObject({
      actorId: owner.id,
      resourceType: "role",
      resourceId: created.id,
    });
  });

  it("refuses a role holding a permission its maker lacks, and stores nothing", async () => {
    const owner = await seedPerson("olga", "owner");
    const developer = await seedPerson("davi", "developer");
    await expect(
      createRole(roleInput("Approvers", ["payments.view", "refunds.approve"]), contextOf(developer)),
    ).rejects.toMatchObject({ code: "FORBIDDEN", messageKey: "roles.errors.beyondYours" });
    expect(await customRoleCount()).toBe(0);

    const viewers = await createRole(roleInput("Viewers", ["payments.view"]), contextOf(owner));
    await expect(
      updateRole(viewers.id, roleInput("Viewers", ["payments.view", "users.manage"]), contextOf(developer), {
        allowLoosening: false,
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN", messageKey: "roles.errors.beyondYours" });
    expect((await db.role.findUniqueOrThrow({ where: { id: viewers.id } })).permissions).toEqual(["payments.view"]);
    // Within what the developer holds, the change is theirs to make.
    await updateRole(viewers.id, roleInput("Viewers", ["payments.view", "webhooks.view"]), contextOf(developer), {
      allowLoosening: false,
    });
    expect((await findRole(db, viewers.id)).permissions).toEqual(["payments.view", "webhooks.view"]);
  });

  it("lets only an Owner give or take the Owner role", async () => {
    const owner = await seedPerson("olga", "owner");
    const admin = await seedPerson("ana", "administrator");
    const clerk = await seedPerson("caio", "operations");
    const ownerOnly = { code: "FORBIDDEN", messageKey: "roles.errors.ownerOnly" };
    await expect(
      createUser({ email: "new@example.com", name: "New", roleId: "owner" }, contextOf(admin)),
    ).rejects.toMatchObject(ownerOnly);
    await expect(changeUserRole(clerk.id, "owner", contextOf(admin))).rejects.toMatchObject(ownerOnly);
    await expect(changeUserRole(owner.id, "operations", contextOf(admin))).rejects.toMatchObject(ownerOnly);
    await expect(setUserActive(owner.id, false, contextOf(admin))).rejects.toMatchObject(ownerOnly);
    expect(await db.user.findUniqueOrThrow({ where: { id: owner.id } })).toMatchObject({
      roleId: "owner",
      isActive: true,
    });

    expect(await changeUserRole(clerk.id, "owner", contextOf(owner))).toMatchObject({ roleId: "owner" });
    expect(await changeUserRole(clerk.id, "analyst", contextOf(owner))).toMatchObject({ roleId: "analyst" });
    expect(
      await db.auditLog.findMany({ where: { action: "user.role_changed" }, orderBy: { occurredAt: "asc" } }),
    ).toMatchObject([
      { actorId: owner.id, resourceId: clerk.id, metadata: { from: "operations", to: "owner" } },
      { actorId: owner.id, resourceId: clerk.id, metadata: { from: "owner", to: "analyst" } },
    ]);
  });

  it("keeps the last active Owner, even when two Owners are demoted at once", async () => {
    const first = await seedPerson("olga", "owner");
    const lastOwner = { code: "CONFLICT", messageKey: "users.errors.lastOwner" };
    await expect(changeUserRole(first.id, "administrator", shell)).rejects.toMatchObject(lastOwner);
    await expect(setUserActive(first.id, false, shell)).rejects.toMatchObject(lastOwner);

    const second = await seedPerson("otto", "owner");
    const results = await Promise.allSettled([
      changeUserRole(first.id, "administrator", shell),
      changeUserRole(second.id, "administrator", shell),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: lastOwner });
    expect(await db.user.count({ where: { roleId: "owner", isActive: true } })).toBe(1);

    // An inactive Owner does not count.
    const [remaining] = await db.user.findMany({ where: { roleId: "owner" } });
    const third = await seedPerson("oscar", "owner");
    await setUserActive(third.id, false, contextOf(remaining!));
    await expect(setUserActive(remaining!.id, false, shell)).rejects.toMatchObject(lastOwner);
  });

  it("deletes an unused custom role, never one in use or a built-in one", async () => {
    const owner = await seedPerson("olga", "owner");
    const used = await createRole(roleInput("Used", ["payments.view"]), contextOf(owner));
    const unused = await createRole(roleInput("Unused", ["payments.view"]), contextOf(owner));
    await seedPerson("bia", used.id);
    await expect(deleteRole(used.id, contextOf(owner))).rejects.toMatchObject({
      code: "CONFLICT",
      messageKey: "roles.errors.inUse",
    });
    await expect(deleteRole("viewer", contextOf(owner))).rejects.toMatchObject({ messageKey: "roles.errors.builtIn" });
    await deleteRole(unused.id, contextOf(owner));
    expect(await db.role.findUnique({ where: { id: unused.id } })).toBeNull();
    expect(await db.role.findUnique({ where: { id: used.id } })).not.toBeNull();
    expect(await db.auditLog.findFirstOrThrow({ where: { action: "role.deleted" } })).toMatchObject({
      resourceId: unused.id,
      metadata: { name: "Unused", permissions: ["payments.view"] },
    });
  });

  it("changes only a built-in role's refund limit", async () => {
    const owner = await seedPerson("olga", "owner");
    const updated = await updateRole(
      "operations",
      roleInput("Everything", ["payments.view", "users.manage"], 40_000),
      contextOf(owner),
      { allowLoosening: false },
    );
    expect(updated).toMatchObject({ id: "operations", name: null, refundLimitCents: 40_000 });
    expect(updated.permissions).toEqual(permissionsOfRole("operations", null));
    expect(await db.role.findUniqueOrThrow({ where: { id: "operations" } })).toMatchObject({
      name: null,
      permissions: [],
      refundLimitCents: 40_000,
    });
    expect(await auditActions()).toEqual(["user.created", "role.updated"]);
  });

  it("holds raising a role's refund limit for a second, independent approver, and lowers it at once", async () => {
    const requester = await seedPerson("ana", "administrator");
    const approver = await seedPerson("bia", "administrator");
    await makeIndependentApprover(approver);

    expect(await updateRoleOrHold("operations", roleInput("Operations", [], 30_000), contextOf(requester))).toEqual({
      status: "saved",
    });
    expect((await findRole(db, "operations")).refundLimitCents).toBe(30_000);

    const held = await updateRoleOrHold("operations", roleInput("Operations", [], 500_000), contextOf(requester));
    expect(held).toMatchObject({ status: "pending" });
    const { changeId } = held as { changeId: string };
    expect(await db.pendingAdminChange.findUniqueOrThrow({ where: { id: changeId } })).toMatchObject({
      kind: "LOOSEN_ROLE_REFUND_LIMIT",
      status: "PENDING",
      requestedById: requester.id,
    });
    expect((await findRole(db, "operations")).refundLimitCents).toBe(30_000);
    // Turning the limit off (0) is loosening too.
    expect(await updateRoleOrHold("operations", roleInput("Operations", [], 0), contextOf(requester))).toMatchObject({
      status: "pending",
    });

    await expect(approveAdminChange(changeId, "123456", contextOf(requester))).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await approveAdminChange(changeId, await freshApproverCode(approver.id), contextOf(approver));
    expect((await findRole(db, "operations")).refundLimitCents).toBe(500_000);
    expect(await db.pendingAdminChange.findUniqueOrThrow({ where: { id: changeId } })).toMatchObject({
      status: "APPROVED",
      decidedById: approver.id,
    });
  });

  it("refuses to give users.manage to a role people hold, since that would skip the second admin", async () => {
    const owner = await seedPerson("olga", "owner");
    const desk = await createRole(roleInput("Desk", ["payments.view"]), contextOf(owner));
    const empty = await createRole(roleInput("Empty", ["payments.view"]), contextOf(owner));
    await seedPerson("caio", desk.id);
    const withUsers = (name: string) => roleInput(name, ["payments.view", "users.manage"]);
    await expect(
      updateRole(desk.id, withUsers("Desk"), contextOf(owner), { allowLoosening: false }),
    ).rejects.toMatchObject({ code: "CONFLICT", messageKey: "roles.errors.administrationInUse" });
    expect((await findRole(db, desk.id)).permissions).toEqual(["payments.view"]);
    await updateRole(empty.id, withUsers("Empty"), contextOf(owner), { allowLoosening: false });
    expect((await findRole(db, empty.id)).permissions).toEqual(["payments.view", "users.manage"]);
  });

  it("brings a role's new permissions to its people's sessions on their next request", async () => {
    const owner = await seedPerson("olga", "owner");
    const desk = await createRole(roleInput("Desk", ["payments.view"]), contextOf(owner));
    const clerk = await seedPerson("caio", desk.id);
    const token = await tokenOf(clerk.id);
    expect(await permissionsInSession(token)).toEqual(["payments.view"]);

    // Editing the role does not sign its people out: the same token now carries the new set.
    await updateRole(desk.id, roleInput("Desk", ["payments.view", "links.manage"]), contextOf(owner), {
      allowLoosening: false,
    });
    expect(await permissionsInSession(token)).toEqual(["payments.view", "links.manage"]);

    // Changing the person's role ends their sessions; a new one holds the new role's permissions.
    await changeUserRole(clerk.id, "analyst", contextOf(owner));
    expect(await permissionsInSession(token)).toBeNull();
    expect(await permissionsInSession(await tokenOf(clerk.id))).toEqual(permissionsOfRole("analyst", null));
  });
});
