"use server";

import { defineAction } from "@/lib/actions/define-action";
import { renewSession } from "@/lib/auth/session";
import { ZChangeOwnPasswordInput } from "@/lib/users/schemas";
import { changeOwnPassword } from "@/lib/users/users";

export const changeOwnPasswordAction = defineAction(
  { permission: null, schema: ZChangeOwnPasswordInput, allowPasswordChange: true },
  async (input, { user, context }) => {
    const { sessionVersion } = await changeOwnPassword(user.id, input, context);
    await renewSession(user, sessionVersion);
  },
);
