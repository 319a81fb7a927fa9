import { useTranslations } from "next-intl";

import { StatusBadge, type TStatusTone } from "@/components/status-badge";
import type { TPixChargeStatus } from "@/lib/pix/types";

const toneByStatus: Record<TPixChargeStatus, TStatusTone> = {
  CREATED: "neutral",
  ACTIVE: "info",
  PAID: "success",
  "PARTIALLY REFUNDED": "warning",
  REFUNDED: "neutral",
  EXPIRED: "neutral",
  Cancelada: "danger",
};

/** Message key of a status: spaces are not welcome in message keys ("PARTIALLY REFUNDED"). */
export function pixChargeStatusKey(status: string): string {
  return status.replace(/ /g, "_");
}

/** A charge status in words; an unknown upstream value is shown as sent instead of breaking the page. */
export function PixChargeStatusBadge({ status, className }: { status: string; className?: string }) {
  const t = useTranslations("pix.status");
  const key = pixChargeStatusKey(status);
  return (
    <StatusBadge status={status} toneByStatus={toneByStatus as Record<string, TStatusTone>} className={className}>
      {t.has(key) ? t(key) : status}
    </StatusBadge>
  );
}
