"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";

import type { TPermission } from "@/lib/auth/permissions";
import { cn } from "@/lib/utils";

import { findActiveNavHref, navSectionsFor } from "./nav-items";

type SidebarNavProps = {
  permissions: readonly TPermission[];
  /** Called when a link is followed, so the mobile drawer can close. */
  onNavigate?: () => void;
};

export function SidebarNav({ permissions, onNavigate }: SidebarNavProps) {
  const t = useTranslations("nav");
  const pathname = usePathname();
  const sections = navSectionsFor(permissions);
  const activeHref = findActiveNavHref(pathname);

  return (
    <nav aria-label={t("label")} className="flex flex-col gap-5">
      {sections.map((section) => (
        <div key={section.key} className="flex flex-col gap-1">
          <h2
            id={`nav-${section.key}`}
            className="px-3 text-xs font-medium tracking-wide text-muted-foreground uppercase"
          >
            {t(`sections.${section.key}`)}
          </h2>
          <ul aria-labelledby={`nav-${section.key}`} className="flex flex-col gap-0.5">
            {section.items.map((item) => {
              const isActive = item.href === activeHref;
              const Icon = item.icon;
              return (
                <li key={item.key}>
                  <Link
                    href={item.href}
                    onClick={onNavigate}
                    aria-current={isActive ? "page" : undefined}
                    className={cn(
                      "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-sidebar-foreground transition-colors outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring",
                      isActive && "bg-accent text-accent-foreground",
                    )}
                  >
                    <Icon
                      className={cn("size-4 shrink-0", isActive ? "text-primary" : "opacity-70")}
                      aria-hidden="true"
                    />
                    {t(item.key)}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
