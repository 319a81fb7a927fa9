"use server";

import { defineAction } from "@/lib/actions/define-action";
import { renewSession } from "@/lib/auth/session";
import {
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  ZConfirmTwoFactorInput,
  ZDisableTwoFactorInput,
} from "@/lib/auth/two-factor";

// Reachable while the admin setting blocks everything else until two-factor sign-in is set up. Turning two-factor
// on or off ends the user's other sessions; this browser gets a new one.
export const confirmTwoFactorAction = defineAction(
  { permission: null, schema: ZConfirmTwoFactorInput, allowTwoFactorEnrolment: true },
  async (input, { user, context }) => {
    const { recoveryCodes, sessionVersion } = await confirmTwoFactorEnrolment(user.id, input, context);
    await renewSession(user, sessionVersion);
    return { recoveryCodes };
  },
);

export const disableTwoFactorAction = defineAction(
  { permission: null, schema: ZDisableTwoFactorInput, allowTwoFactorEnrolment: true },
  async (input, { user, context }) => {
    const { sessionVersion } = await disableTwoFactor(user.id, input, context);
    await renewSession(user, sessionVersion);
  },
);
