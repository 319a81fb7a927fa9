"use server";

import { defineAction } from "@/lib/actions/define-action";
import {
  finishPasskeyRegistration,
  removePasskey,
  renamePasskey,
  startPasskeyRegistration,
  ZFinishPasskeyRegistrationInput,
  ZRemovePasskeyInput,
  ZRenamePasskeyInput,
  ZStartPasskeyRegistrationInput,
} from "@/lib/auth/passkeys";
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

// Passkeys: adding or removing one asks for the password again (lib/auth/passkeys.ts) and, like two-factor, ends
// the user's other sessions.
export const startPasskeyRegistrationAction = defineAction(
  { permission: null, schema: ZStartPasskeyRegistrationInput, allowTwoFactorEnrolment: true },
  async (input, { user, context }) => startPasskeyRegistration(user.id, input, context),
);

export const finishPasskeyRegistrationAction = defineAction(
  { permission: null, schema: ZFinishPasskeyRegistrationInput, allowTwoFactorEnrolment: true },
  async (input, { user, context }) => {
    const { sessionVersion } = await finishPasskeyRegistration(user.id, input, context);
    await renewSession(user, sessionVersion);
  },
);

export const renamePasskeyAction = defineAction(
  { permission: null, schema: ZRenamePasskeyInput, allowTwoFactorEnrolment: true },
  async (input, { user, context }) => renamePasskey(user.id, input, context),
);

export const removePasskeyAction = defineAction(
  { permission: null, schema: ZRemovePasskeyInput, allowTwoFactorEnrolment: true },
  async (input, { user, context }) => {
    const { sessionVersion } = await removePasskey(user.id, input, context);
    await renewSession(user, sessionVersion);
  },
);
