import { can, type TPermissionHolder } from "@/lib/auth/permissions";
import { onlyDigits } from "@/lib/shared/cpf-cnpj";

// Least data (LGPD art. 6, III): without customers.viewDocuments a CPF/CNPJ shows masked (it is searched by typing it).

export function canSeeFullDocuments(viewer: TPermissionHolder): boolean {
  return can(viewer, "customers.viewDocuments");
}

export function maskDocument(value: string): string {
  const digits = onlyDigits(value);
  if (digits.length === 11 && digits.length === value.replace(/[.\-\s]/g, "").length)
    return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
  const cnpj = value.replace(/[.\-/\s]/g, "").toUpperCase();
  if (/^[\dA-Z]{12}\d{2}$/.test(cnpj)) return `**.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-**`;
  return value.length <= 3 ? "*".repeat(value.length) : `${"*".repeat(value.length - 3)}${value.slice(-3)}`;
}

export function documentFor(viewer: TPermissionHolder, value: string): string {
  return canSeeFullDocuments(viewer) ? value : maskDocument(value);
}
