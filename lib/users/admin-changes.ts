import "server-only";
import { z } from "zod";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { assertIndependentApprover } from "@/lib/auth/independent-approver";
import { administrationPermission } from "@/lib/auth/permissions";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { AdminChangeKind, Prisma } from "@/lib/generated/prisma/client";
import { getAppSetting, setAppSetting } from "@/lib/settings/app-settings";
import { inviteUser } from "./invitations";
import { assertMayGrant, findRole, isAdministrationRole, isLooseningLimit, updateRole } from "./roles";
import { type TRoleInput, ZCreateUserInput, ZRefundLimitCents, ZRoleId, ZRoleInput } from "./schemas";
import { changeUserRole, resetUserPassword, resetUserTwoFactor } from "./users";

// Changes that would let one admin act as two wait for a second, independent admin (docs/security.md). An admin is
// whoever holds users.manage: creating or promoting one, or resetting one's factors, is held.
// `npm run user:create` (no actor) is the break-glass path and is never held.
const adminChangeTtlMs = 24 * 60 * 60_000;

// Money settings where a larger value, or 0 (off), lets more money out without a second person.
const ZLoosenableMoneySetting = z.enum(["dailyMoneyReturnLimitCents"]);
export type TLoosenableMoneySetting = z.infer<typeof ZLoosenableMoneySetting>;

const ZPayload = {
  // Held before roles had ids: those were Administrators.
  CREATE_ADMIN: ZCreateUserInput.pick({ email: true, name: true }).extend({ roleId: ZRoleId.default("administrator") }),
  PROMOTE_TO_ADMIN: z.object({ roleId: ZRoleId.default("administrator") }),
  RESET_PASSWORD: z.object({}),
  RESET_TWO_FACTOR: z.object({}),
  LOOSEN_MONEY_SETTING: z.object({ key: ZLoosenableMoneySetting, valueCents: z.number().int().min(0) }),
  LOOSEN_ROLE_REFUND_LIMIT: z.object({
    roleId: ZRoleId,
    roleName: z.string().nullable(),
    valueCents: ZRefundLimitCents,
  }),
} satisfies Record<AdminChangeKind, z.ZodType>;

type TAdminChangeRequest =
  | { kind: "CREATE_ADMIN"; payload: z.infer<(typeof ZPayload)["CREATE_ADMIN"]> }
  | { kind: "PROMOTE_TO_ADMIN"; targetUserId: string; payload: z.infer<(typeof ZPayload)["PROMOTE_TO_ADMIN"]> }
  | { kind: "RESET_PASSWORD" | "RESET_TWO_FACTOR"; targetUserId: string }
  | { kind: "LOOSEN_MONEY_SETTING"; payload: z.infer<(typeof ZPayload)["LOOSEN_MONEY_SETTING"]> }
  | { kind: "LOOSEN_ROLE_REFUND_LIMIT"; payload: z.infer<(typeof ZPayload)["LOOSEN_ROLE_REFUND_LIMIT"]> };

export type THeld = { status: "pending"; changeId: string };

export type TAdminChangeView = {
  id: string;
  kind: AdminChangeKind;
  target: { id: string; name: string; email: string } | null;
  payload: Record<string, unknown>;
  requestedBy: { id: string; name: string; email: string };
  createdAt: string;
  expiresAt: string;
  isExpired: boolean;
};

const auditFields = (context: TChangeContext, changeId: string) => auditFieldsOf(context, "admin_change", changeId);

async function holdAdminChange(request: TAdminChangeRequest, context: TChangeContext): Promise<THeld> {
  const requesterId = context.actor?.id;
  if (!requesterId) throw new AppError("FORBIDDEN", "adminChanges.errors.requesterRequired");
  const targetUserId = "targetUserId" in request ? request.targetUserId : null;
  const payload = ("payload" in request ? ZPayload[request.kind].parse(request.payload) : {}) as Prisma.InputJsonValue;
  const change = await inTransaction(async (tx) => {
    const created = await tx.pendingAdminChange.create({
      data: {
        kind: request.kind,
        payload,
        targetUserId,
        requestedById: requesterId,
        expiresAt: new Date(Date.now() + adminChangeTtlMs),
      },
    });
    await recordAudit(
      {
        ...auditFields(context, created.id),
        action: "admin_change.requested",
        metadata: { kind: request.kind, targetUserId, payload },
      },
      tx,
    );
    return created;
  });
  return { status: "pending", changeId: change.id };
}

async function findTarget(userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, roleId: true } });
  if (!user) throw new AppError("NOT_FOUND", "users.errors.invalidUser");
  return { ...user, isAdmin: isAdministrationRole(await findRole(db, user.roleId)) };
}

export async function createUserOrHold(
  input: { email: string; name: string; roleId: string },
  context: TChangeContext,
): Promise<{ status: "invited"; email: string } | THeld> {
  const parsed = ZCreateUserInput.omit({ password: true }).parse(input);
  const role = await findRole(db, parsed.roleId);
  await assertMayGrant(db, context, role);
  if (isAdministrationRole(role) && context.actor) {
    if (await db.user.findUnique({ where: { email: parsed.email }, select: { id: true } })) {
      throw new AppError("CONFLICT", "users.errors.emailTaken", {
        fieldErrors: { email: "emailTaken" },
      });
    }
    return holdAdminChange(
      { kind: "CREATE_ADMIN", payload: { email: parsed.email, name: parsed.name, roleId: role.id } },
      context,
    );
  }
  return inviteUser(parsed, context);
}

// Making someone an admin is creating an admin; demoting is not held (the last-Owner rule guards it).
export async function changeUserRoleOrHold(
  userId: string,
  roleId: string,
  context: TChangeContext,
): Promise<{ status: "changed" } | THeld> {
  const user = await findTarget(userId);
  const role = await findRole(db, roleId);
  await assertMayGrant(db, context, role);
  if (isAdministrationRole(role) && !user.isAdmin && context.actor) {
    return holdAdminChange({ kind: "PROMOTE_TO_ADMIN", targetUserId: userId, payload: { roleId } }, context);
  }
  await changeUserRole(userId, roleId, context);
  return { status: "changed" };
}

// Another admin's password or factors: whoever resets them could sign in as that admin.
export async function resetUserPasswordOrHold(
  userId: string,
  context: TChangeContext,
): Promise<{ status: "reset" } | THeld> {
  const user = await findTarget(userId);
  if (user.isAdmin && context.actor && context.actor.id !== userId) {
    return holdAdminChange({ kind: "RESET_PASSWORD", targetUserId: userId }, context);
  }
  await resetUserPassword(userId, context);
  return { status: "reset" };
}

export async function resetUserTwoFactorOrHold(
  userId: string,
  context: TChangeContext,
): Promise<{ status: "reset" } | THeld> {
  const user = await findTarget(userId);
  if (user.isAdmin && context.actor && context.actor.id !== userId) {
    return holdAdminChange({ kind: "RESET_TWO_FACTOR", targetUserId: userId }, context);
  }
  await resetUserTwoFactor(userId, context);
  return { status: "reset" };
}

// Raising a money limit or turning it off (0) is held; lowering or turning it on applies at once.

export async function setMoneySettingOrHold(
  key: TLoosenableMoneySetting,
  valueCents: number,
  context: TChangeContext,
): Promise<{ status: "saved" } | THeld> {
  if (isLooseningLimit(await getAppSetting(key), valueCents) && context.actor) {
    return holdAdminChange({ kind: "LOOSEN_MONEY_SETTING", payload: { key, valueCents } }, context);
  }
  await setAppSetting(key, valueCents, context);
  return { status: "saved" };
}

// A role's name, permissions and a tighter limit apply at once; a looser limit waits like a money setting.
export async function updateRoleOrHold(
  roleId: string,
  input: TRoleInput,
  context: TChangeContext,
): Promise<{ status: "saved" } | THeld> {
  const role = await findRole(db, roleId);
  const parsed = ZRoleInput.parse(input);
  const isLoosening = isLooseningLimit(role.refundLimitCents, parsed.refundLimitCents);
  await updateRole(roleId, isLoosening ? { ...input, refundLimitCents: role.refundLimitCents } : input, context, {
    allowLoosening: !context.actor,
  });
  if (isLoosening && context.actor) {
    return holdAdminChange(
      {
        kind: "LOOSEN_ROLE_REFUND_LIMIT",
        payload: { roleId, roleName: parsed.name, valueCents: parsed.refundLimitCents },
      },
      context,
    );
  }
  return { status: "saved" };
}

export type TAdminChangeResult = { kind: AdminChangeKind; email?: string };

async function applyAdminChange(
  change: { kind: AdminChangeKind; payload: unknown; targetUserId: string | null },
  context: TChangeContext,
): Promise<TAdminChangeResult> {
  const target = () => {
    if (!change.targetUserId) throw new AppError("NOT_FOUND", "users.errors.invalidUser");
    return change.targetUserId;
  };
  switch (change.kind) {
    case "CREATE_ADMIN": {
      const { email, name, roleId } = ZPayload.CREATE_ADMIN.parse(change.payload);
      await inviteUser({ email, name, roleId }, context);
      return { kind: change.kind, email };
    }
    case "PROMOTE_TO_ADMIN":
      await changeUserRole(target(), ZPayload.PROMOTE_TO_ADMIN.parse(change.payload ?? {}).roleId, context);
      return { kind: change.kind };
    case "RESET_PASSWORD":
      await resetUserPassword(target(), context);
      return { kind: change.kind };
    case "RESET_TWO_FACTOR":
      await resetUserTwoFactor(target(), context);
      return { kind: change.kind };
    case "LOOSEN_MONEY_SETTING": {
      const { key, valueCents } = ZPayload.LOOSEN_MONEY_SETTING.parse(change.payload);
      await setAppSetting(key, valueCents, context);
      return { kind: change.kind };
    }
    case "LOOSEN_ROLE_REFUND_LIMIT": {
      const { roleId, valueCents } = ZPayload.LOOSEN_ROLE_REFUND_LIMIT.parse(change.payload);
      const role = await findRole(db, roleId);
      const current = { name: role.name ?? role.id, description: role.description, permissions: role.permissions };
      await updateRole(roleId, { ...current, refundLimitCents: valueCents }, context, { allowLoosening: true });
      return { kind: change.kind };
    }
  }
}

async function loadPending(changeId: string, context: TChangeContext) {
  const change = await db.pendingAdminChange.findUnique({ where: { id: changeId } });
  if (!change) throw new AppError("NOT_FOUND", "adminChanges.errors.notFound");
  if (change.status !== "PENDING")
    throw new AppError("CONFLICT", "adminChanges.errors.notPending", {
      params: { status: change.status },
    });
  if (change.expiresAt <= new Date()) {
    const { count } = await db.pendingAdminChange.updateMany({
      where: { id: changeId, status: "PENDING" },
      data: { status: "EXPIRED" },
    });
    if (count === 1) await recordAudit({ ...auditFields(context, changeId), action: "admin_change.expired" });
    throw new AppError("CONFLICT", "adminChanges.errors.expired");
  }
  return change;
}

// The second admin must be independent (not requester or target, older than 24 h, 2FA on) and present (fresh code).
// Claimed first so concurrent approvals apply once; a failure returns it to waiting.
export async function approveAdminChange(
  changeId: string,
  code: string | undefined,
  context: TChangeContext,
): Promise<TAdminChangeResult> {
  const change = await loadPending(changeId, context);
  const approverId = context.actor?.id;
  if (!approverId) throw new AppError("FORBIDDEN", "approverCode.errors.notApprover");
  if (change.targetUserId === approverId) {
    throw new AppError("FORBIDDEN", "approverCode.errors.ownAccount", {
      fieldErrors: { approver: "ownAccount" },
    });
  }
  await assertIndependentApprover(
    { approverId, requesterId: change.requestedById, code, permission: administrationPermission },
    context,
  );
  const { count } = await db.pendingAdminChange.updateMany({
    where: { id: changeId, status: "PENDING" },
    data: { status: "APPROVED", decidedById: approverId, decidedAt: new Date() },
  });
  if (count === 0) throw new AppError("CONFLICT", "adminChanges.errors.noLongerPending");
  let result: TAdminChangeResult;
  try {
    result = await applyAdminChange(change, context);
  } catch (error) {
    await db.pendingAdminChange.update({
      where: { id: changeId },
      data: { status: "PENDING", decidedById: null, decidedAt: null },
    });
    throw error;
  }
  await recordAudit({
    ...auditFields(context, changeId),
    action: "admin_change.approved",
    metadata: { kind: change.kind, targetUserId: change.targetUserId, requestedById: change.requestedById },
  });
  return result;
}

// Saying no needs no second factor (nothing happens), but still another admin or the requester withdrawing it.
export async function rejectAdminChange(changeId: string, context: TChangeContext): Promise<void> {
  const change = await loadPending(changeId, context);
  const { count } = await db.pendingAdminChange.updateMany({
    where: { id: changeId, status: "PENDING" },
    data: { status: "REJECTED", decidedById: context.actor?.id ?? null, decidedAt: new Date() },
  });
  if (count === 0) throw new AppError("CONFLICT", "adminChanges.errors.noLongerPending");
  await recordAudit({
    ...auditFields(context, changeId),
    action: "admin_change.rejected",
    metadata: { kind: change.kind, targetUserId: change.targetUserId, requestedById: change.requestedById },
  });
}

// Oldest first; one past its 24 h shows as expired until someone acts.
export async function listPendingAdminChanges(now = new Date()): Promise<TAdminChangeView[]> {
  const person = { select: { id: true, name: true, email: true } } as const;
  const rows = await db.pendingAdminChange.findMany({
    where: { status: "PENDING" },
    include: { requestedBy: person, targetUser: person },
    orderBy: { createdAt: "asc" },
    take: 100,
  });
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    target: row.targetUser,
    payload: (row.payload ?? {}) as Record<string, unknown>,
    requestedBy: row.requestedBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    isExpired: row.expiresAt <= now,
  }));
}
