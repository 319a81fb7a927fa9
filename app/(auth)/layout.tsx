import { NextIntlClientProvider } from "next-intl";
import type { ReactNode } from "react";

import "../globals.css";
import { Providers } from "../providers";

// Locale, time zone and messages come from lib/i18n/request.ts (the root layout has no client provider, so the
// payer's page ships no next-intl runtime).
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <NextIntlClientProvider>
      <Providers>{children}</Providers>
    </NextIntlClientProvider>
  );
}
