"use server";

import { definePublicAction } from "@/lib/actions/define-action";
import { requestPasswordReset } from "@/lib/auth/password-reset";
import { log } from "@/lib/log";
import { ZForgotPasswordInput } from "@/lib/users/schemas";

// One answer for every address; the mail leaves after it (not awaited), so the time taken does not tell either.
export const requestPasswordResetAction = definePublicAction(
  { schema: ZForgotPasswordInput },
  async ({ email }, { context }) => {
    const { delivery } = await requestPasswordReset(email, context);
    delivery.catch((error: unknown) => log.error({ err: error }, "forgot password: delivery failed"));
    return { status: "sent" as const };
  },
);
