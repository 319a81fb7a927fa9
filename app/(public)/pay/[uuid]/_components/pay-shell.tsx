import { getLocale, getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { LockIcon } from "@/components/server-icons";
import { resolveLocale } from "@/lib/i18n/config";

import { switchPayLocaleAction } from "../actions";

type PayShellProps = { merchantName?: string; children: ReactNode };

/** The hosted page's frame: merchant name, language switch, content. No dashboard chrome, no client JS. */
export async function PayShell({ merchantName, children }: PayShellProps) {
  const t = await getTranslations("pay");
  const locale = resolveLocale(await getLocale());
  const other = locale === "pt-BR" ? "en" : "pt-BR";
  return (
    <div className="mx-auto flex min-h-dvh w-full max-w-md flex-col gap-5 px-4 py-5">
      <header className="flex items-center justify-between gap-3">
        <p className="truncate text-base font-semibold">{merchantName ?? t("merchantFallback")}</p>
        {/* A plain form: switching language needs no script and no session (the cookie is enough). */}
        <form action={switchPayLocaleAction.bind(null, other)}>
          <button
            type="submit"
            lang={other}
            className="rounded-md px-2 py-1 text-sm font-medium underline underline-offset-4 outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
          >
            {t(`language.${other}`)}
          </button>
        </form>
      </header>
      <main className="grid gap-5">{children}</main>
      <footer className="mt-auto flex items-center justify-center gap-1.5 pt-4 text-xs text-muted-foreground">
        <LockIcon className="size-3.5" aria-hidden="true" />
        {t("footer")}
      </footer>
    </div>
  );
}
