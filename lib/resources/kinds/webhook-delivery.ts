import "server-only";
import { defineExportList } from "@/lib/exports/define";
import { webhookDeliveryList } from "@/lib/webhooks/history";

export const webhookDeliveryExport = defineExportList({
  kind: "webhookDeliveries",
  permission: "webhooks.view",
  fileName: "webhook-deliveries",
  list: webhookDeliveryList,
  findMany: (query, reader) => reader.webhookDelivery.findMany(query),
  columns: [
    { key: "id", cell: (delivery) => delivery.id },
    { key: "receivedAt", cell: (delivery, format) => format.dateTime(delivery.receivedAt) },
    { key: "event", cell: (delivery) => delivery.event ?? "" },
    { key: "outcome", cell: (delivery) => delivery.outcome },
    { key: "resourceType", cell: (delivery) => delivery.resourceType ?? "" },
    { key: "resourceId", cell: (delivery, format) => format.text(delivery.resourceId) },
    { key: "deliveryId", cell: (delivery, format) => format.text(delivery.deliveryId) },
    { key: "signatureValid", cell: (delivery, format) => format.yesNo(delivery.signatureValid) },
    { key: "webhookId", cell: (delivery) => delivery.webhookId ?? "" },
    { key: "replay", cell: (delivery, format) => format.yesNo(delivery.replayOfId !== null) },
  ],
});
