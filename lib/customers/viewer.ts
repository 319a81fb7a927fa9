import "server-only";
import type { TPermissionHolder } from "@/lib/auth/permissions";
import { getWebhooksEnv } from "@/lib/config/webhooks-env";
import { openSecret, SecretBoxError, sealSecret } from "@/lib/crypto/secret-box";
import { canSeeFullDocuments, documentFor } from "@/lib/security/personal-data";
import { ZCustomerDocument } from "./schemas";
import type { TCustomerRow, TCustomerViewRow } from "./types";

// Least data for STAFF (docs/search-and-customers.md): a masked document, and links carrying a sealed reference
// (AES-256-GCM) instead of the CPF/CNPJ, so neither the URL, the history nor the HTML holds it.

const purpose = "customer-ref";

export function customerSegmentFor(viewer: TPermissionHolder, document: string): string {
  return canSeeFullDocuments(viewer) ? document : sealSecret(document, purpose, getWebhooksEnv().secretKey);
}

function customerHrefFor(viewer: TPermissionHolder, document: string): string {
  return `/customers/${encodeURIComponent(customerSegmentFor(viewer, document))}`;
}

export function customerForViewer(viewer: TPermissionHolder, row: TCustomerRow): TCustomerViewRow {
  return { ...row, document: documentFor(viewer, row.document), href: customerHrefFor(viewer, row.document) };
}

export function customerDocumentOf(segment: string): string | null {
  const digits = ZCustomerDocument.safeParse(segment);
  if (digits.success) return digits.data;
  try {
    const opened = ZCustomerDocument.safeParse(openSecret(segment, purpose, getWebhooksEnv().secretKey));
    return opened.success ? opened.data : null;
  } catch (error) {
    if (error instanceof SecretBoxError) return null;
    throw error;
  }
}
