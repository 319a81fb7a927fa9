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
import { ZCreateUserInput, ZRole, ZUserId } from "@/lib/users/schemas";
import { setUserActive } from "@/lib/users/users";

// A new user is invited by mail (lib/users/invitations.ts). Creating or promoting an admin, and resetting another admin's password or two-factor, answer `pending`: the
// change waits on /users for a second admin (lib/users/admin-changes.ts).

export const createUserAction = defineAction(
  { schema: ZCreateUserInput.omit({ password: true }), role: "ADMIN" },
  async (input, { context }) => {
    const result = await createUserOrHold(input, context);
    revalidatePath("/users");
    return result;
  },
);

export const changeUserRoleAction = defineAction(
  { schema: z.object({ userId: ZUserId, role: ZRole }), role: "ADMIN" },
  async ({ userId, role }, { context }) => {
    const result = await changeUserRoleOrHold(userId, role, context);
    revalidatePath("/users");
    return result;
  },
);

export const setUserActiveAction = defineAction(
  { schema: z.object({ userId: ZUserId, isActive: z.boolean() }), role: "ADMIN" },
  async ({ userId, isActive }, { context }) => {
    await setUserActive(userId, isActive, context);
    revalidatePath("/users");
  },
);

export const resetUserPasswordAction = defineAction(
  { schema: z.object({ userId: ZUserId }), role: "ADMIN" },
  async ({ userId }, { context }) => {
    const result = await resetUserPasswordOrHold(userId, context);
    revalidatePath("/users");
    return result;
  },
);

export const resetUserTwoFactorAction = defineAction(
  { schema: z.object({ userId: ZUserId }), role: "ADMIN" },
  async ({ userId }, { context }) => {
    const result = await resetUserTwoFactorOrHold(userId, context);
    revalidatePath("/users");
    return result;
  },
);

const ZInvitationId = z.object({ invitationId: z.uuid({ error: "invalidInvitation" }) });

export const resendInvitationAction = defineAction(
  { schema: ZInvitationId, role: "ADMIN" },
  async ({ invitationId }, { context }) => {
    await resendInvitation(invitationId, context);
    revalidatePath("/users");
  },
);

export const revokeInvitationAction = defineAction(
  { schema: ZInvitationId, role: "ADMIN" },
  async ({ invitationId }, { context }) => {
    await revokeInvitation(invitationId, context);
    revalidatePath("/users");
  },
);

const ZAdminChangeDecision = z.object({ changeId: z.uuid({ error: "invalidChange" }) });

// A second, independent admin with a fresh authenticator code (checked in lib/auth/independent-approver.ts).
export const approveAdminChangeAction = defineAction(
  { schema: ZAdminChangeDecision.extend({ code: z.string().max(32).optional() }), role: "ADMIN" },
  async ({ changeId, code }, { context }) => {
    const result = await approveAdminChange(changeId, code, context);
    revalidatePath("/users");
    revalidatePath("/settings");
    return result;
  },
);

export const rejectAdminChangeAction = defineAction(
  { schema: ZAdminChangeDecision, role: "ADMIN" },
  async ({ changeId }, { context }) => {
    await rejectAdminChange(changeId, context);
    revalidatePath("/users");
    revalidatePath("/settings");
  },
);
