"use client";

import { signIn } from "next-auth/react";
import { useEffect, useRef } from "react";
import { ssoErrorPrefix } from "@/lib/sso/refusals";

export function SsoTicketSignIn() {
  const isStarted = useRef(false);
  useEffect(() => {
    if (isStarted.current) return;
    isStarted.current = true;
    const ticket = window.location.hash.slice(1);
    // The ticket is single use: drop it from the address bar and history at once.
    window.history.replaceState(null, "", window.location.pathname);
    void signIn("sso", { ticket, redirect: false })
      .catch(() => null)
      .then((result) => {
        // A full load: sign-in may have switched the language cookie.
        window.location.replace(result?.ok && !result.error ? "/" : `/login?error=${ssoErrorPrefix}ticketInvalid`);
      });
  }, []);
  return null;
}
