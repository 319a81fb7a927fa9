"use server";

import { cookies } from "next/headers";

import { definePublicAction } from "@/lib/actions/define-action";
import { getCurrentUser } from "@/lib/auth/session";
import { log } from "@/lib/log";
import { updateOwnLocale } from "@/lib/users/users";

import { localeCookieName, ZLocale } from "./config";

const oneYearInSeconds = 365 * 24 * 60 * 60;

export const setLocaleAction = definePublicAction({ schema: ZLocale }, async (locale, { context }) => {
  (await cookies()).set(localeCookieName, locale, { maxAge: oneYearInSeconds, path: "/", sameSite: "lax" });

  const user = await getCurrentUser();
  if (user && user.locale !== locale) {
    try {
      await updateOwnLocale(user.id, locale, { ip: context.ip, userAgent: context.userAgent });
    } catch (error) {
      // Best-effort: the cookie already switched the language.
      log.warn({ err: error, userId: user.id }, "could not save the user's locale");
    }
  }
  return null;
});
