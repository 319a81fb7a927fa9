"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import { ZCreateUserInput, ZRole, ZUserId } from "@/lib/users/schemas";
import { changeUserRole, createUser, resetUserPassword, resetUserTwoFactor, setUserActive } from "@/lib/users/users";

export const createUserAction = defineAction(
  { schema: ZCreateUserInput.omit({ password: true }), role: "ADMIN" },
  async (input, { context }) => {
    const { user: created, oneTimePassword } = await createUser(input, context);
    revalidatePath("/users");
    return { email: created.email, oneTimePassword: oneTimePassword! };
  },
);

export const changeUserRoleAction = defineAction(
  { schema: z.object({ userId: ZUserId, role: ZRole }), role: "ADMIN" },
  async ({ userId, role }, { context }) => {
    await changeUserRole(userId, role, context);
    revalidatePath("/users");
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
    const result = await resetUserPassword(userId, context);
    revalidatePath("/users");
    return result;
  },
);

export const resetUserTwoFactorAction = defineAction(
  { schema: z.object({ userId: ZUserId }), role: "ADMIN" },
  async ({ userId }, { context }) => {
    await resetUserTwoFactor(userId, context);
    revalidatePath("/users");
  },
);
