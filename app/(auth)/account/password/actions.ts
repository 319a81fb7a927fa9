"use server";

import { defineAction } from "@/lib/actions/define-action";
import { getRequestContext } from "@/lib/auth/request-context";
import { renewSession } from "@/lib/auth/session";
import { ZChangeOwnPasswordInput } from "@/lib/users/user-schemas";
import { changeOwnPassword } from "@/lib/users/users";

export const changeOwnPasswordAction = defineAction(
  { schema: ZChangeOwnPasswordInput, allowPasswordChange: true },
  async (input, user) => {
    const { sessionVersion } = await changeOwnPassword(user.id, input, await getRequestContext());
    await renewSession(user, sessionVersion);
  },
);
