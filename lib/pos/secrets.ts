import "server-only";
import { getWebhooksEnv } from "@/lib/config/webhooks-env";
import { openSecret, sealSecret } from "@/lib/crypto/secret-box";

// The owner row is associated data: a box copied onto another key's or seller's row does not open.

const sellerTokenPurpose = (apiKeyId: string) => `pos-seller-token:${apiKeyId}`;

export type TTokenRegistroTlsOwner = { tenantId: string } | { sellerId: string } | { posId: string };
const tlsPurpose = (owner: TTokenRegistroTlsOwner) =>
  "posId" in owner
    ? `pos-tls-token:pos:${owner.posId}`
    : "sellerId" in owner
      ? `pos-tls-token:seller:${owner.sellerId}`
      : `pos-tls-token:tenant:${owner.tenantId}`;

export function sealSellerTokenSecret(secret: string, apiKeyId: string, key = getWebhooksEnv().secretKey): string {
  return sealSecret(secret, sellerTokenPurpose(apiKeyId), key);
}

export function openSellerTokenSecret(box: string, apiKeyId: string, key = getWebhooksEnv().secretKey): string {
  return openSecret(box, sellerTokenPurpose(apiKeyId), key);
}

export function sealTokenRegistroTls(
  value: string,
  owner: TTokenRegistroTlsOwner,
  key = getWebhooksEnv().secretKey,
): string {
  return sealSecret(value, tlsPurpose(owner), key);
}

export function openTokenRegistroTls(
  box: string,
  owner: TTokenRegistroTlsOwner,
  key = getWebhooksEnv().secretKey,
): string {
  return openSecret(box, tlsPurpose(owner), key);
}
