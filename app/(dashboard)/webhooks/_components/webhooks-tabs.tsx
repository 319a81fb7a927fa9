import Link from "next/link";
import { useTranslations } from "next-intl";

import { cn } from "@/lib/utils";

const tabs = [
  { key: "webhooks", href: "/webhooks", isAdminOnly: true },
  { key: "deliveries", href: "/webhooks/deliveries", isAdminOnly: false },
  { key: "signatureCheck", href: "/webhooks/signature-check", isAdminOnly: true },
] as const;

type WebhooksTabsProps = { active: (typeof tabs)[number]["key"]; isAdmin: boolean };

/** The webhooks area's own navigation; staff see only the delivery history, so no tabs at all. */
export function WebhooksTabs({ active, isAdmin }: WebhooksTabsProps) {
  const t = useTranslations("webhooks.tabs");
  if (!isAdmin) return null;
  return (
    <nav
      aria-label={t("label")}
      className="inline-flex h-9 w-fit items-center rounded-lg bg-muted p-1 text-muted-foreground"
    >
      {tabs.map((tab) => (
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
