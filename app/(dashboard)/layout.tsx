import { NextIntlClientProvider } from "next-intl";
import type { ReactNode } from "react";

import { requireUser } from "@/lib/auth/session";

import "../globals.css";
import { Providers } from "../providers";
import { DashboardShell } from "./_components/dashboard-shell";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  // Locale, time zone and messages come from lib/i18n/request.ts (the root layout has no client provider).
  return (
    <NextIntlClientProvider>
      <Providers>
        <DashboardShell user={user}>{children}</DashboardShell>
      </Providers>
    </NextIntlClientProvider>
  );
}
