import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import { getLocale, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { resolveTheme, themeClassName, themeCookieName } from "@/lib/theme/config";

import "./root.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("common");
  return {
    title: { template: `%s · ${t("appName")}`, default: t("appName") },
    robots: { index: false, follow: false },
  };
}

export const viewport: Viewport = { themeColor: "#ffffff" };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  // From the cookie, on the server: the first paint already has the chosen palette (no flash).
  const theme = resolveTheme((await cookies()).get(themeCookieName)?.value);
  return (
    <html lang={locale} className={themeClassName(theme)}>
      <body className="min-h-dvh">
        {/* The language provider (next-intl's client runtime and the message catalog), the query client,
            toaster, URL-state adapter and the full stylesheet live in the staff layouts ((auth), (dashboard)):
            the payer's page (/pay) translates on the server and ships none of them, nor do not-found and forbidden. */}
        {children}
      </body>
    </html>
  );
}
