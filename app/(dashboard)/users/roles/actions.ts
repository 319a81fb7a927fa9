"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import { updateRoleOrHold } from "@/lib/users/admin-changes";
import { createRole, deleteRole } from "@/lib/users/roles";
import { ZRoleId, ZRoleInput } from "@/lib/users/schemas";

// A role holds only what its author holds (lib/users/roles.ts); a looser refund limit waits for a second admin.

export const createRoleAction = defineAction(
  { permission: "users.manage", schema: ZRoleInput },
  async (input, { context }) => {
    const role = await createRole(input, context);
    revalidatePath("/users/roles");
    return { id: role.id };
  },
);

export const updateRoleAction = defineAction(
  { permission: "users.manage", schema: ZRoleInput.extend({ roleId: ZRoleId }) },
  async ({ roleId, ...input }, { context }) => {
    const result = await updateRoleOrHold(roleId, input, context);
    revalidatePath("/users/roles");
    revalidatePath("/users");
    return result;
  },
);

export const deleteRoleAction = defineAction(
  { permission: "users.manage", schema: z.object({ roleId: ZRoleId }) },
  async ({ roleId }, { context }) => {
    await deleteRole(roleId, context);
    revalidatePath("/users/roles");
  },
);
