"use server";

import { z } from "zod";
import { definePublicAction } from "@/lib/actions/define-action";
import { startPasskeySignIn } from "@/lib/auth/passkeys";

// A single-use challenge for a usernameless passkey sign-in, or for a passkey as the second factor; the assertion
// then goes through next-auth (provider "passkey", or "credentials" with the password).
export const startPasskeySignInAction = definePublicAction({ schema: z.object({}) }, async (_input, { context }) =>
  startPasskeySignIn(context.ip ?? null),
);
