"use server";

import { cookies } from "next/headers";

import { getRequestContext } from "@/lib/auth/request-context";
import { getCurrentUser } from "@/lib/auth/session";
import { log } from "@/lib/log";
import { updateOwnLocale } from "@/lib/users/users";

import { localeCookieName, ZLocale } from "./config";

const oneYearInSeconds = 365 * 24 * 60 * 60;

type SetLocaleResult = { ok: true } | { ok: false; error: { code: "VALIDATION_FAILED"; message: string } };

// Anyone may switch (the sign-in page too); a signed-in user's choice is also saved on the account.
export async function setLocaleAction(input: unknown): Promise<SetLocaleResult> {
  const parsed = ZLocale.safeParse(input);
  if (!parsed.success) return { ok: false, error: { code: "VALIDATION_FAILED", message: "Unsupported locale" } };
  const locale = parsed.data;

  (await cookies()).set(localeCookieName, locale, { maxAge: oneYearInSeconds, path: "/", sameSite: "lax" });

  const user = await getCurrentUser();
  if (user && user.locale !== locale) {
    try {
      await updateOwnLocale(user.id, locale, await getRequestContext());
    } catch (error) {
      // The cookie already switched the language; failing to remember it on the account is not worth an error.
      log.warn({ err: error, userId: user.id }, "could not save the user's locale");
    }
  }
  return { ok: true };
}
