import { detectCardBrand, type TCardBrand } from "@/lib/shared/card";

// Formatting of the card fields as they are typed (hosted pay page, virtual terminal). Pure: the inputs stay
// uncontrolled, these only rewrite what the browser shows.

export function cardDigits(value: string): string {
  return value.replace(/\D/g, "");
}

// The brand as soon as the prefix tells it (detectCardBrand wants a full-length number).
export function guessCardBrand(digits: string): TCardBrand | null {
  if (digits.length < 4) return null;
  return detectCardBrand(digits.slice(0, 6).padEnd(16, "0"))?.brand ?? null;
}

function maxCardDigits(brand: TCardBrand | null): number {
  return brand === "amex" ? 15 : brand === "diners" ? 14 : 19;
}

/** Groups of 4 (Amex 4-6-5, Diners 4-6-4), cut at the brand's length. */
export function formatCardNumber(value: string): string {
  const brand = guessCardBrand(cardDigits(value));
  const digits = cardDigits(value).slice(0, maxCardDigits(brand));
  if (brand === "amex" || brand === "diners")
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10)].filter(Boolean).join(" ");
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** `MM/YY` as typed: "1" stays, "4" becomes "04/", "1225" becomes "12/25". */
export function formatExpiry(value: string): string {
  let digits = cardDigits(value).slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}
