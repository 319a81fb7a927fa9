import Link from "next/link";
import { useTranslations } from "next-intl";
import type { TPermission } from "@/lib/auth/permissions";

import { cn } from "@/lib/utils";

const tabs = [
  { key: "webhooks", href: "/webhooks", permission: "webhooks.manage" },
  { key: "deliveries", href: "/webhooks/deliveries", permission: "webhooks.view" },
  { key: "signatureCheck", href: "/webhooks/signature-check", permission: "webhooks.manage" },
] as const satisfies readonly { key: string; href: string; permission: TPermission }[];

type WebhooksTabsProps = { active: (typeof tabs)[number]["key"]; permissions: readonly TPermission[] };

/** The webhooks area's own navigation: the tabs the viewer may open, none when that is only the one shown. */
export function WebhooksTabs({ active, permissions }: WebhooksTabsProps) {
  const t = useTranslations("webhooks.tabs");
  const shown = tabs.filter((tab) => permissions.includes(tab.permission));
  if (shown.length < 2) return null;
  return (
    <nav
      aria-label={t("label")}
      className="inline-flex h-9 w-fit items-center rounded-lg bg-muted p-1 text-muted-foreground"
    >
      {shown.map((tab) => (
        <Link
          key={tab.key}
          href={tab.href}
          aria-current={tab.key === active ? "page" : undefined}
          className={cn(
            "inline-flex h-full items-center rounded-md px-3 text-sm font-medium whitespace-nowrap outline-none focus-visible:ring-2 focus-visible:ring-ring",
            tab.key === active && "bg-background text-foreground shadow-xs",
          )}
        >
          {t(tab.key)}
        </Link>
      ))}
    </nav>
  );
}
