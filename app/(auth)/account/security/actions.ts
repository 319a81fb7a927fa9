"use server";

import { defineAction } from "@/lib/actions/define-action";
import {
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  ZConfirmTwoFactorInput,
  ZDisableTwoFactorInput,
} from "@/lib/auth/two-factor";

// Reachable while the admin setting blocks everything else until two-factor sign-in is set up.
export const confirmTwoFactorAction = defineAction(
  { schema: ZConfirmTwoFactorInput, allowTwoFactorEnrolment: true },
  (input, { user, context }) => confirmTwoFactorEnrolment(user.id, input, context),
);

export const disableTwoFactorAction = defineAction(
  { schema: ZDisableTwoFactorInput, allowTwoFactorEnrolment: true },
  (input, { user, context }) => disableTwoFactor(user.id, input, context),
);
