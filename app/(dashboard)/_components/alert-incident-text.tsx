"use client";

import { useLocale, useTranslations } from "next-intl";

import type { TAlertRuleKey, TAlertSummaryParams } from "@/lib/alerts/rule-keys";
import { formatDateTime } from "@/lib/format/date-time";
import { resolveLocale } from "@/lib/i18n/config";

export type TAlertIncidentItem = {
  id: string;
  ruleKey: TAlertRuleKey;
  openedAt: string;
  resolvedAt: string | null;
  summary: TAlertSummaryParams;
};

function useAlertDuration() {
  const t = useTranslations("alerts.duration");
  return (fromIso: string, toIso: string) => {
    const minutes = Math.max(1, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 60_000));
    if (minutes < 120) return t("minutes", { count: minutes });
    const hours = Math.round(minutes / 60);
    return hours < 48 ? t("hours", { count: hours }) : t("days", { count: Math.round(hours / 24) });
  };
}

/** The rule's name, what it found, and when it opened (and resolved, with how long it lasted). */
export function AlertIncidentText({
  incident,
  isCompact = false,
}: {
  incident: TAlertIncidentItem;
  isCompact?: boolean;
}) {
  const t = useTranslations("alerts");
  const duration = useAlertDuration();
  const locale = resolveLocale(useLocale());
  return (
    <div className="grid min-w-0 gap-0.5">
      <span className="font-medium">{t(`rules.${incident.ruleKey}.title`)}</span>
      <span className="text-sm break-words text-muted-foreground">
        {t(`rules.${incident.ruleKey}.summary`, incident.summary)}
      </span>
      {isCompact ? null : (
        <span className="text-xs text-muted-foreground">
          {incident.resolvedAt
            ? t("lastedFor", {
                at: formatDateTime(incident.resolvedAt, locale),
                duration: duration(incident.openedAt, incident.resolvedAt),
              })
            : t("openedAt", { at: formatDateTime(incident.openedAt, locale) })}
        </span>
      )}
    </div>
  );
}
