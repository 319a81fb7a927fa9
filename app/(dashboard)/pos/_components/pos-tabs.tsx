import Link from "next/link";
import { useTranslations } from "next-intl";

import { cn } from "@/lib/utils";

const tabs = [
  { key: "overview", href: "/pos" },
  { key: "keys", href: "/pos/keys" },
  { key: "sellers", href: "/pos/sellers" },
  { key: "sales", href: "/pos/sales" },
] as const;

export type TPosTab = (typeof tabs)[number]["key"];

/** The point-of-sale area's own navigation; wraps on a phone instead of scrolling sideways. */
export function PosTabs({ active }: { active: TPosTab }) {
  const t = useTranslations("pos.tabs");
  return (
    <nav
      aria-label={t("label")}
      className="flex w-fit max-w-full flex-wrap gap-1 rounded-lg bg-muted p-1 text-muted-foreground"
    >
      {tabs.map((tab) => (
        <Link
          key={tab.key}
          href={tab.href}
          aria-current={tab.key === active ? "page" : undefined}
          className={cn(
            "inline-flex h-7 items-center rounded-md px-3 text-sm font-medium whitespace-nowrap outline-none focus-visible:ring-2 focus-visible:ring-ring",
            tab.key === active && "bg-background text-foreground shadow-xs",
          )}
        >
          {t(tab.key)}
        </Link>
      ))}
    </nav>
  );
}
