import { useTranslations } from "next-intl";

import { StatusBadge, type TStatusTone } from "@/components/status-badge";
import type { WebhookDeliveryOutcome } from "@/lib/generated/prisma/enums";

const toneByOutcome: Record<WebhookDeliveryOutcome, TStatusTone> = {
  PENDING: "info",
  APPLIED: "success",
  DUPLICATE: "neutral",
  IGNORED: "neutral",
  REJECTED_SIGNATURE: "danger",
  STALE: "warning",
  FAILED: "danger",
};

export function DeliveryOutcomeBadge({ outcome }: { outcome: WebhookDeliveryOutcome }) {
  const t = useTranslations("webhooks.outcomes");
  return (
    <StatusBadge status={outcome} toneByStatus={toneByOutcome}>
      {t(outcome)}
    </StatusBadge>
  );
}
