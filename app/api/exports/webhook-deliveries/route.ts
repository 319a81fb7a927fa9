import { exportRoute } from "@/lib/exports/route";

// GET /api/exports/webhook-deliveries – the webhook deliveries list (/webhooks/deliveries) as CSV, with the page's URL filters (docs/exports.md).
export const GET = exportRoute("webhookDeliveries");
