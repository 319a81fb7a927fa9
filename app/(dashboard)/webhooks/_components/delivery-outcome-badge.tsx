import { ResourceStatusBadge } from "@/components/resource-status-badge";
import type { WebhookDeliveryOutcome } from "@/lib/generated/prisma/enums";

export function DeliveryOutcomeBadge({ outcome }: { outcome: WebhookDeliveryOutcome }) {
  return <ResourceStatusBadge resource="webhookDelivery" status={outcome} />;
}
