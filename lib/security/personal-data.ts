import type { TRole } from "@/lib/auth/session-user";
import { onlyDigits } from "@/lib/shared/cpf-cnpj";

// Least data (LGPD art. 6, III): STAFF see a CPF/CNPJ masked (they search by typing it).

export function canSeeFullDocuments(role: TRole): boolean {
  return role === "ADMIN";
}

export function maskDocument(value: string): string {
  const digits = onlyDigits(value);
  if (digits.length === 11 && digits.length === value.replace(/[.\-\s]/g, "").length)
    return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
  const cnpj = value.replace(/[.\-/\s]/g, "").toUpperCase();
  if (/^[\dA-Z]{12}\d{2}$/.test(cnpj)) return `**.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-**`;
  return value.length <= 3 ? "*".repeat(value.length) : `${"*".repeat(value.length - 3)}${value.slice(-3)}`;
}

export function documentFor(role: TRole, value: string): string {
  return canSeeFullDocuments(role) ? value : maskDocument(value);
}
