"use client";

import { useTranslations } from "next-intl";

import { Badge } from "@/components/ui/badge";

import { AlertIncidentText, type TAlertIncidentItem } from "../../_components/alert-incident-text";

export function IncidentList({ incidents, label }: { incidents: TAlertIncidentItem[]; label: string }) {
  const t = useTranslations("alerts");
  return (
    <ul className="grid gap-3" aria-label={label}>
      {incidents.map((incident) => (
        <li
          key={incident.id}
          id={`incident-${incident.id}`}
          className="flex min-w-0 items-start justify-between gap-3 rounded-md border p-3"
        >
          <AlertIncidentText incident={incident} />
          <Badge tone={incident.resolvedAt ? "success" : "danger"}>
            {incident.resolvedAt ? t("resolved") : t("open")}
          </Badge>
        </li>
      ))}
    </ul>
  );
}
