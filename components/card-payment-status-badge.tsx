import { useTranslations } from "next-intl";

import { StatusBadge, type TStatusTone } from "@/components/status-badge";
import type { TCardPaymentStatusKind } from "@/lib/card-payments/views";

const toneByKind: Record<TCardPaymentStatusKind, TStatusTone> = {
  approved: "success",
  cancelled: "neutral",
  refused: "danger",
  unknown: "warning",
};

/** A card payment's status in words (approved, cancelled, refused); an unknown upstream status is shown as sent. */
export function CardPaymentStatusBadge({
  kind,
  status,
  className,
}: {
  kind: TCardPaymentStatusKind;
  status: string;
  className?: string;
}) {
  const t = useTranslations("cardPayments.statusKind");
  return (
    <StatusBadge status={kind} toneByStatus={toneByKind} className={className}>
      {kind === "unknown" ? status : t(kind)}
    </StatusBadge>
  );
}
