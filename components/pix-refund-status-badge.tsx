import { useTranslations } from "next-intl";

import { StatusBadge, type TStatusTone } from "@/components/status-badge";
import type { TPixRefundStatusCode } from "@/lib/pix/types";

// Spec 3.5 codes: 1 CREATED, 2 PROCESSING, 3 RETURNED, 4 NOT FINISHED, 99 ERROR.
const toneByCode: Record<TPixRefundStatusCode, TStatusTone> = {
  1: "neutral",
  2: "info",
  3: "success",
  4: "danger",
  99: "danger",
};

type PixRefundStatusBadgeProps = {
  statusCode: number;
  /** Upstream's description, shown for a code the spec does not list. */
  statusDescription?: string | null;
  className?: string;
};

function PixRefundStatusBadge({ statusCode, statusDescription, className }: PixRefundStatusBadgeProps) {
  const t = useTranslations("refunds.status");
  const key = String(statusCode);
  return (
    <StatusBadge status={key} toneByStatus={toneByCode as Record<string, TStatusTone>} className={className}>
      {t.has(key) ? t(key) : (statusDescription ?? key)}
    </StatusBadge>
  );
}

/** The badge with upstream's reason under it (a refusal says why), as the refund tables show it. */
export function PixRefundStatusCell({
  statusCode,
  statusDescription,
  statusReason,
}: PixRefundStatusBadgeProps & { statusReason?: string | null }) {
  return (
    <div className="flex flex-col gap-1">
      <PixRefundStatusBadge statusCode={statusCode} statusDescription={statusDescription} />
      {statusReason ? <span className="text-xs text-muted-foreground">{statusReason}</span> : null}
    </div>
  );
}
