"use server";

import { cookies } from "next/headers";

import { definePublicAction } from "@/lib/actions/define-action";
import { getCurrentUser } from "@/lib/auth/session";
import { log } from "@/lib/log";
import { updateOwnTheme } from "@/lib/users/users";

import { themeCookieName, ZTheme } from "./config";

const oneYearInSeconds = 365 * 24 * 60 * 60;

// Like the language: anyone may switch (the cookie paints the next page); a signed-in user's choice is also saved.
export const setThemeAction = definePublicAction({ schema: ZTheme }, async (theme) => {
  (await cookies()).set(themeCookieName, theme, { maxAge: oneYearInSeconds, path: "/", sameSite: "lax" });

  const user = await getCurrentUser();
  if (user) {
    try {
      await updateOwnTheme(user.id, theme);
    } catch (error) {
      // The cookie already switched the palette; failing to remember it on the account is not worth an error.
      log.warn({ err: error, userId: user.id }, "could not save the user's theme");
    }
  }
  return null;
});
