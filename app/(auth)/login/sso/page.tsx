import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { SsoTicketSignIn } from "../_components/sso-ticket-sign-in";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("auth.login");
  return { title: t("ssoSignIn"), referrer: "no-referrer" };
}

// Where the SSO callback lands: the one-time ticket in the fragment becomes a session through next-auth.
export default async function SsoTicketPage() {
  const t = await getTranslations("auth.login");
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted/40 p-4">
      <p role="status" className="text-sm text-muted-foreground">
        {t("ssoFinishing")}
      </p>
      <SsoTicketSignIn />
    </main>
  );
}
