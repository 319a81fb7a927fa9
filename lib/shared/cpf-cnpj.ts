// From July 2026 new CNPJs may carry letters in their first 12 characters (check digits stay digits); callers that
// store digits only (the Pix and links APIs) keep the numeric rule unless they opt in.

export function onlyDigits(value: string): string {
  return value.replace(/\D/g, "");
}

// Each character counts as its char code − 48: "0"–"9" are 0–9 and "A"–"Z" are 17–42 (the 2026 CNPJ rule).
function checkDigit(digits: string, weights: readonly number[]): number {
  const sum = weights.reduce((total, weight, index) => total + weight * (digits.charCodeAt(index) - 48), 0);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

// Ids made of one repeated digit pass the check-digit rule but are never issued.
function isRepeatedDigit(digits: string): boolean {
  return /^(\d)\1*$/.test(digits);
}

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

// Only digits and the usual separators are accepted, so "abc123..." is not silently cleaned up.
const ALLOWED_CHARACTERS = /^[\d.\-/\s]*$/;

export function isValidCpf(value: string): boolean {
  if (!ALLOWED_CHARACTERS.test(value)) return false;
  const digits = onlyDigits(value);
  if (digits.length !== 11 || isRepeatedDigit(digits)) return false;
  return (
    checkDigit(digits, CPF_WEIGHTS_1) === Number(digits[9]) && checkDigit(digits, CPF_WEIGHTS_2) === Number(digits[10])
  );
}

export type TCnpjOptions = { allowAlphanumeric?: boolean };

const ALPHANUMERIC_CNPJ_CHARACTERS = /^[\dA-Za-z.\-/\s]*$/;

export function normalizeCnpj(value: string): string {
  return value.replace(/[.\-/\s]/g, "").toUpperCase();
}

export function isValidCnpj(value: string, options: TCnpjOptions = {}): boolean {
  if (!options.allowAlphanumeric) {
    if (!ALLOWED_CHARACTERS.test(value)) return false;
  } else if (!ALPHANUMERIC_CNPJ_CHARACTERS.test(value)) return false;
  const cnpj = options.allowAlphanumeric ? normalizeCnpj(value) : onlyDigits(value);
  if (!/^[\dA-Z]{12}\d{2}$/.test(cnpj) || isRepeatedDigit(cnpj)) return false;
  return checkDigit(cnpj, CNPJ_WEIGHTS_1) === Number(cnpj[12]) && checkDigit(cnpj, CNPJ_WEIGHTS_2) === Number(cnpj[13]);
}

export function isValidCpfOrCnpj(value: string, options: TCnpjOptions = {}): boolean {
  return isValidCpf(value) || isValidCnpj(value, options);
}

export function formatCpf(value: string): string {
  const digits = onlyDigits(value);
  if (digits.length !== 11) return value;
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
}

export function formatCnpj(value: string): string {
  const digits = /[A-Za-z]/.test(value) ? normalizeCnpj(value) : onlyDigits(value);
  if (digits.length !== 14) return value;
  return `${digits.slice(0, 2)}.${digits.slice(2, 5)}.${digits.slice(5, 8)}/${digits.slice(8, 12)}-${digits.slice(12)}`;
}

export function formatCpfOrCnpj(value: string): string {
  const digits = onlyDigits(value);
  if (digits.length === 11) return formatCpf(value);
  if (digits.length === 14 || isValidCnpj(value, { allowAlphanumeric: true })) return formatCnpj(value);
  return value;
}
