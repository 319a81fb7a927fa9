import type { TRole } from "@/lib/auth/session-user";
import { onlyDigits } from "@/lib/shared/cpf-cnpj";

// Least data (LGPD art. 6, III): a payer's CPF/CNPJ is shown whole only to those whose work needs it. STAFF find
// payments and customers by it (they type it) and tell payers apart by its middle digits; admins, who answer data
// subject requests and reconcile with the gateway, see it whole. Search, the customers pages and the exports apply
// this; the payments' own lists and pages, where staff match a payment to the payer asking about it, do not.

export function canSeeFullDocuments(role: TRole): boolean {
  return role === "ADMIN";
}

/**
 * `***.456.789-**` for a CPF, `**.345.678/0001-**` for a CNPJ (the first and check digits hidden); any other
 * document (a foreign payer's) keeps only its last three characters.
 */
export function maskDocument(value: string): string {
  const digits = onlyDigits(value);
  if (digits.length === 11 && digits.length === value.replace(/[.\-\s]/g, "").length)
    return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
  const cnpj = value.replace(/[.\-/\s]/g, "").toUpperCase();
  if (/^[\dA-Z]{12}\d{2}$/.test(cnpj)) return `**.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-**`;
  return value.length <= 3 ? "*".repeat(value.length) : `${"*".repeat(value.length - 3)}${value.slice(-3)}`;
}

/** The document as `role` may see it: whole (as given) for admins, masked for everyone else. */
export function documentFor(role: TRole, value: string): string {
  return canSeeFullDocuments(role) ? value : maskDocument(value);
}
