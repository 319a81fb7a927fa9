import { useTranslations } from "next-intl";

import { StatusBadge } from "@/components/status-badge";
import { resourceDescriptors, type TResourceBadge, type TResourceKey } from "@/lib/resources/registry";

const badgeByResource = new Map<string, TResourceBadge>(
  resourceDescriptors.map((descriptor) => [descriptor.key, descriptor.badge]),
);

/** Spaces are not welcome in message keys ("PARTIALLY REFUNDED"). */
export function statusMessageKey(status: string | number): string {
  return String(status).replaceAll(" ", "_");
}

type TResourceStatusBadgeProps = {
  resource: TResourceKey;
  status: string | number;
  /** What the gateway called a status the catalogs lack; the status itself when absent. */
  label?: string | null;
  className?: string;
};

/** A resource's status in words, coloured as its registry entry says; an unknown status is shown as sent. */
export function ResourceStatusBadge({ resource, status, label, className }: TResourceStatusBadgeProps) {
  const badge = badgeByResource.get(resource);
  const t = useTranslations();
  if (!badge) throw new Error(`No badge for ${resource}`);
  const key = `${badge.messages}.${statusMessageKey(status)}`;
  const isKnown = t.has(key);
  return (
    <StatusBadge
      status={String(status)}
      toneByStatus={isKnown ? badge.tones : { [String(status)]: badge.unknownTone ?? "neutral" }}
      className={className}
    >
      {isKnown ? t(key) : (label ?? String(status))}
    </StatusBadge>
  );
}
