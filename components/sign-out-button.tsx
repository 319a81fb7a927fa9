"use client";

import { LogOutIcon } from "lucide-react";
import { signOut } from "next-auth/react";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useIsHydrated } from "@/components/use-is-hydrated";

export function SignOutButton() {
  const t = useTranslations("common");
  const [isSigningOut, setIsSigningOut] = useState(false);
  const isHydrated = useIsHydrated();

  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={!isHydrated || isSigningOut}
      onClick={() => {
        setIsSigningOut(true);
        // Navigate ourselves: next-auth's own redirect uses NEXTAUTH_URL, which may name
        // another host than the one the browser is on (a proxy, another port).
        void signOut({ redirect: false }).then(() => window.location.assign("/login"));
      }}
    >
      {isSigningOut ? <Spinner /> : <LogOutIcon aria-hidden="true" />}
      {/* Icon only on a phone, so the header never scrolls sideways; the name stays for screen readers. */}
      <span className="sr-only sm:not-sr-only">{t("signOut")}</span>
    </Button>
  );
}
