// CPF (people, 11 digits) and CNPJ (companies, 14 digits); pure, shared with the sandbox.

export function onlyDigits(value: string): string {
  return value.replace(/\D/g, "");
}

function checkDigit(digits: string, weights: readonly number[]): number {
  const sum = weights.reduce((total, weight, index) => total + weight * Number(digits[index]), 0);
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

export function isValidCnpj(value: string): boolean {
  if (!ALLOWED_CHARACTERS.test(value)) return false;
  const digits = onlyDigits(value);
  if (digits.length !== 14 || isRepeatedDigit(digits)) return false;
  return (
    checkDigit(digits, CNPJ_WEIGHTS_1) === Number(digits[12]) &&
    checkDigit(digits, CNPJ_WEIGHTS_2) === Number(digits[13])
  );
}

export function isValidCpfOrCnpj(value: string): boolean {
  return isValidCpf(value) || isValidCnpj(value);
}

export function formatCpf(value: string): string {
  const digits = onlyDigits(value);
  if (digits.length !== 11) return value;
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
}

export function formatCnpj(value: string): string {
  const digits = onlyDigits(value);
  if (digits.length !== 14) return value;
  return `${digits.slice(0, 2)}.${digits.slice(2, 5)}.${digits.slice(5, 8)}/${digits.slice(8, 12)}-${digits.slice(12)}`;
}

// Other lengths, such as foreign documents, are returned unchanged.
export function formatCpfOrCnpj(value: string): string {
  const digits = onlyDigits(value);
  if (digits.length === 11) return formatCpf(value);
  if (digits.length === 14) return formatCnpj(value);
  return value;
}
