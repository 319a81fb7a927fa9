"use server";

import { cookies } from "next/headers";

import { definePublicAction } from "@/lib/actions/define-action";
import { getCurrentUser } from "@/lib/auth/session";
import { log } from "@/lib/log";
import { updateOwnTheme } from "@/lib/users/users";

import { themeCookieName, ZTheme } from "./config";

const oneYearInSeconds = 365 * 24 * 60 * 60;

export const setThemeAction = definePublicAction({ schema: ZTheme }, async (theme) => {
  (await cookies()).set(themeCookieName, theme, { maxAge: oneYearInSeconds, path: "/", sameSite: "lax" });

  const user = await getCurrentUser();
  if (user) {
    try {
      await updateOwnTheme(user.id, theme);
    } catch (error) {
      // Best-effort: the cookie already switched the palette.
      log.warn({ err: error, userId: user.id }, "could not save the user's theme");
    }
  }
  return null;
});
