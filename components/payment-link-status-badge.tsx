import { useTranslations } from "next-intl";

import { StatusBadge, type TStatusTone } from "@/components/status-badge";

// Spec 3.3 codes: 1 CREATED, 2 EXPIRED, 3 PAID, 4 CANCELLED.
const toneByCode: Record<string, TStatusTone> = { 1: "info", 2: "neutral", 3: "success", 4: "danger" };

type PaymentLinkStatusBadgeProps = {
  statusCode: number;
  /** Upstream's label, shown for a code the app does not know. */
  statusDescription?: string | null;
  className?: string;
};

export function PaymentLinkStatusBadge({ statusCode, statusDescription, className }: PaymentLinkStatusBadgeProps) {
  const t = useTranslations("links.status");
  const key = String(statusCode);
  return (
    <StatusBadge status={key} toneByStatus={toneByCode} className={className}>
      {t.has(key) ? t(key) : (statusDescription ?? key)}
    </StatusBadge>
  );
}
