import { ShieldCheckIcon } from "lucide-react";
import { cookies } from "next/headers";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { LocaleSwitcher } from "@/components/locale-switcher";
import { SignOutButton } from "@/components/sign-out-button";
import { ThemeSwitcher } from "@/components/theme-switcher";
import { Button } from "@/components/ui/button";
import { roleLabel } from "@/lib/auth/roles";
import type { TCurrentUser } from "@/lib/auth/session";
import { resolveTheme, themeCookieName } from "@/lib/theme/config";

import { AlertsBell } from "./alerts-bell";
import { AppBrand } from "./app-brand";
import { GlobalSearch } from "./global-search";
import { MobileNav } from "./mobile-nav";
import { SidebarNav } from "./sidebar-nav";

type DashboardShellProps = {
  user: Pick<TCurrentUser, "name" | "roleId" | "roleName" | "permissions">;
  children: ReactNode;
};

/** Sidebar (a drawer on small screens), header with the user, language and sign-out, and the page. */
export async function DashboardShell({ user, children }: DashboardShellProps) {
  const t = await getTranslations("common");
  const theme = resolveTheme((await cookies()).get(themeCookieName)?.value);
  const userSummary = (
    <div className="flex flex-col leading-tight">
      <span className="text-sm font-medium">{user.name}</span>
      <span className="text-xs text-muted-foreground">{roleLabel(user, (roleId) => t(`roles.${roleId}`))}</span>
    </div>
  );

  return (
    <div className="flex min-h-dvh">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:ring-2 focus:ring-ring"
      >
        {t("skipToContent")}
      </a>
      <aside className="sticky top-0 hidden h-dvh w-64 shrink-0 flex-col gap-6 overflow-y-auto border-r bg-sidebar px-3 py-4 lg:flex">
        <div className="px-3">
          <AppBrand />
        </div>
        <SidebarNav permissions={user.permissions} />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur sm:px-6">
          <MobileNav permissions={user.permissions} footer={userSummary} />
          <div className="lg:hidden">
            <AppBrand isCompactOnPhone />
          </div>
          <div className="ml-auto flex items-center gap-1 sm:gap-2">
            <GlobalSearch />
            {user.permissions.includes("health.view") ? <AlertsBell /> : null}
            <div className="hidden text-right sm:block">{userSummary}</div>
            <LocaleSwitcher />
            <ThemeSwitcher initialTheme={theme} />
            <Button asChild variant="ghost" size="icon" title={t("accountSecurity")}>
              <Link href="/account/security" aria-label={t("accountSecurity")}>
                <ShieldCheckIcon aria-hidden="true" />
              </Link>
            </Button>
            <SignOutButton />
          </div>
        </header>
        <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8">
          {children}
        </main>
      </div>
    </div>
  );
}
