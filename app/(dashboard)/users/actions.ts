"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import {
  approveAdminChange,
  changeUserRoleOrHold,
  createUserOrHold,
  rejectAdminChange,
  resetUserPasswordOrHold,
  resetUserTwoFactorOrHold,
} from "@/lib/users/admin-changes";
import { resendInvitation, revokeInvitation } from "@/lib/users/invitations";
import { ZCreateUserInput, ZRoleId, ZUserId } from "@/lib/users/schemas";
import { setUserActive } from "@/lib/users/users";

// A new user is invited by mail (lib/users/invitations.ts). Creating or promoting an admin, and resetting another admin's password or two-factor, answer `pending`: the
// change waits on /users for a second admin (lib/users/admin-changes.ts).

export const createUserAction = defineAction(
  { permission: "users.manage", schema: ZCreateUserInput.omit({ password: true }) },
  async (input, { context }) => {
    const result = await createUserOrHold(input, context);
    revalidatePath("/users");
    return result;
  },
);

export const changeUserRoleAction = defineAction(
  { permission: "users.manage", schema: z.object({ userId: ZUserId, roleId: ZRoleId }) },
  async ({ userId, roleId }, { context }) => {
    const result = await changeUserRoleOrHold(userId, roleId, context);
    revalidatePath("/users");
    return result;
  },
);

export const setUserActiveAction = defineAction(
  { permission: "users.manage", schema: z.object({ userId: ZUserId, isActive: z.boolean() }) },
  async ({ userId, isActive }, { context }) => {
    await setUserActive(userId, isActive, context);
    revalidatePath("/users");
  },
);

export const resetUserPasswordAction = defineAction(
  { permission: "users.manage", schema: z.object({ userId: ZUserId }) },
  async ({ userId }, { context }) => {
    const result = await resetUserPasswordOrHold(userId, context);
    revalidatePath("/users");
    return result;
  },
);

export const resetUserTwoFactorAction = defineAction(
  { permission: "users.manage", schema: z.object({ userId: ZUserId }) },
  async ({ userId }, { context }) => {
    const result = await resetUserTwoFactorOrHold(userId, context);
    revalidatePath("/users");
    return result;
  },
);

const ZInvitationId = z.object({ invitationId: z.uuid({ error: "invalidInvitation" }) });

export const resendInvitationAction = defineAction(
  { permission: "users.manage", schema: ZInvitationId },
  async ({ invitationId }, { context }) => {
    await resendInvitation(invitationId, context);
    revalidatePath("/users");
  },
);

export const revokeInvitationAction = defineAction(
  { permission: "users.manage", schema: ZInvitationId },
  async ({ invitationId }, { context }) => {
    await revokeInvitation(invitationId, context);
    revalidatePath("/users");
  },
);

const ZAdminChangeDecision = z.object({ changeId: z.uuid({ error: "invalidChange" }) });

// A second, independent admin with a fresh authenticator code (checked in lib/auth/independent-approver.ts).
export const approveAdminChangeAction = defineAction(
  { permission: "users.manage", schema: ZAdminChangeDecision.extend({ code: z.string().max(32).optional() }) },
  async ({ changeId, code }, { context }) => {
    const result = await approveAdminChange(changeId, code, context);
    revalidatePath("/users");
    revalidatePath("/settings");
    return result;
  },
);

export const rejectAdminChangeAction = defineAction(
  { permission: "users.manage", schema: ZAdminChangeDecision },
  async ({ changeId }, { context }) => {
    await rejectAdminChange(changeId, context);
    revalidatePath("/users");
    revalidatePath("/settings");
  },
);
