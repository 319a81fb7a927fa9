import Link from "next/link";
import { useLocale, useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { formatDate } from "@/lib/format/date-time";
import { resolveLocale } from "@/lib/i18n/config";
import { overviewPresets, type TOverviewPeriod } from "@/lib/overview/schemas";

// Links and a plain GET form: works without JavaScript, and the period stays in the URL to share.
export function OverviewPeriodPicker({ period }: { period: TOverviewPeriod }) {
  const t = useTranslations("overview.period");
  const locale = resolveLocale(useLocale());
  return (
    <section aria-label={t("label")} className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
      <div className="flex flex-col gap-2">
        <nav aria-label={t("label")}>
          <ul className="flex flex-wrap gap-2">
            {overviewPresets
              .filter((preset) => preset !== "custom")
              .map((preset) => (
                <li key={preset}>
                  <Button asChild size="sm" variant={period.preset === preset ? "default" : "outline"}>
                    <Link
                      href={preset === "today" ? "/" : `/?period=${preset}`}
                      aria-current={period.preset === preset ? "page" : undefined}
                    >
                      {t(preset)}
                    </Link>
                  </Button>
                </li>
              ))}
          </ul>
        </nav>
        <p className="text-sm text-muted-foreground">
          {t("range", {
            from: formatDate(`${period.from}T12:00:00Z`, locale),
            to: formatDate(`${period.to}T12:00:00Z`, locale),
          })}
        </p>
      </div>
      <form method="get" action="/" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="period" value="custom" />
        <div className="grid gap-1">
          <Label htmlFor="overview-from">{t("from")}</Label>
          <Input
            id="overview-from"
            name="from"
            type="date"
            defaultValue={period.from}
            max={period.to}
            className="w-40"
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="overview-to">{t("to")}</Label>
          <Input id="overview-to" name="to" type="date" defaultValue={period.to} className="w-40" />
        </div>
        <Button type="submit" size="sm" variant={period.preset === "custom" ? "default" : "outline"}>
          {t("apply")}
        </Button>
      </form>
    </section>
  );
}
