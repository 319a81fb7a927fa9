import "server-only";
import { serverEnv } from "@/lib/config/server-env";

// The path names the local record, so the receiver knows which secret verifies the delivery.
export function webhookReceiverUrl(webhookId: string, baseUrl: string = serverEnv.WEBHOOK_RECEIVER_BASE_URL): string {
  return `${baseUrl.replace(/\/+$/, "")}/api/webhooks/gateway/${webhookId}`;
}
