import "server-only";
import { getWebhooksEnv } from "@/lib/config/webhooks-env";
import { openSecret, sealSecret } from "@/lib/crypto/secret-box";

export { SecretBoxError } from "@/lib/crypto/secret-box";

// The webhook id is associated data: a box copied onto another webhook's row does not open.
const purposeOf = (webhookId: string) => `webhook:${webhookId}`;

export function sealWebhookSecret(secret: string, webhookId: string, key: Buffer = getWebhooksEnv().secretKey): string {
  return sealSecret(secret, purposeOf(webhookId), key);
}

export function openWebhookSecret(box: string, webhookId: string, key: Buffer = getWebhooksEnv().secretKey): string {
  return openSecret(box, purposeOf(webhookId), key);
}
