import "server-only";
import type { TRole } from "@/lib/auth/session-user";
import { getWebhooksEnv } from "@/lib/config/webhooks-env";
import { openSecret, SecretBoxError, sealSecret } from "@/lib/crypto/secret-box";
import { canSeeFullDocuments, documentFor } from "@/lib/security/personal-data";
import { ZCustomerDocument } from "./schemas";
import type { TCustomerRow, TCustomerViewRow } from "./types";

// Least data for STAFF (docs/search-and-customers.md): the document is masked on screen, and the link to a customer
// carries a sealed reference (AES-256-GCM with WEBHOOK_SECRET_KEY, like the other boxes) rather than the CPF/CNPJ, so
// neither the URL, the browser's history nor the page's HTML holds it. Admins get the digits, as before.

const purpose = "customer-ref";

export function customerSegmentFor(role: TRole, document: string): string {
  return canSeeFullDocuments(role) ? document : sealSecret(document, purpose, getWebhooksEnv().secretKey);
}

function customerHrefFor(role: TRole, document: string): string {
  return `/customers/${encodeURIComponent(customerSegmentFor(role, document))}`;
}

export function customerForViewer(role: TRole, row: TCustomerRow): TCustomerViewRow {
  return { ...row, document: documentFor(role, row.document), href: customerHrefFor(role, row.document) };
}

/** The CPF/CNPJ digits a /customers/[document] segment names (the digits, or a sealed reference); null when none. */
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
