"use server";

import { definePublicAction } from "@/lib/actions/define-action";
import { resetPasswordWithLink } from "@/lib/auth/password-reset";
import { ZSetPasswordWithLinkInput } from "@/lib/users/schemas";

export const resetPasswordAction = definePublicAction(
  { schema: ZSetPasswordWithLinkInput },
  async ({ token, password }, { context }) => {
    await resetPasswordWithLink(token, password, context);
  },
);
