"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import { getRequestContext } from "@/lib/auth/request-context";
import type { CurrentUser } from "@/lib/auth/session";
import { ZCreateUserInput, ZRole, ZUserId } from "@/lib/users/user-schemas";
import { changeUserRole, createUser, resetUserPassword, setUserActive } from "@/lib/users/users";

async function changeContext(user: CurrentUser) {
  return { actor: { id: user.id, email: user.email }, ...(await getRequestContext()) };
}

export const createUserAction = defineAction(
  { schema: ZCreateUserInput.omit({ password: true }), role: "ADMIN" },
  async (input, user) => {
    const { user: created, oneTimePassword } = await createUser(input, await changeContext(user));
    revalidatePath("/users");
    return { email: created.email, oneTimePassword: oneTimePassword! };
  },
);

export const changeUserRoleAction = defineAction(
  { schema: z.object({ userId: ZUserId, role: ZRole }), role: "ADMIN" },
  async ({ userId, role }, user) => {
    await changeUserRole(userId, role, await changeContext(user));
    revalidatePath("/users");
  },
);

export const setUserActiveAction = defineAction(
  { schema: z.object({ userId: ZUserId, isActive: z.boolean() }), role: "ADMIN" },
  async ({ userId, isActive }, user) => {
    await setUserActive(userId, isActive, await changeContext(user));
    revalidatePath("/users");
  },
);

export const resetUserPasswordAction = defineAction(
  { schema: z.object({ userId: ZUserId }), role: "ADMIN" },
  async ({ userId }, user) => {
    const result = await resetUserPassword(userId, await changeContext(user));
    revalidatePath("/users");
    return result;
  },
);
