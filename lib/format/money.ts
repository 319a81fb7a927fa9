import { defaultLocale, type TLocale } from "@/lib/i18n/config";

// Intl gets the amount as a decimal *string*, so cents are never divided into a binary float.
function centsToDecimalString(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Amount must be an integer number of cents, got ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const reais = Math.trunc(abs / 100);
  const rest = String(abs % 100).padStart(2, "0");
  return `${sign}${reais}.${rest}`;
}

const currencyFormats = new Map<string, Intl.NumberFormat>();
const amountFormats = new Map<string, Intl.NumberFormat>();

function cachedFormat(cache: Map<string, Intl.NumberFormat>, locale: string, options: Intl.NumberFormatOptions) {
  let format = cache.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, ...options });
    cache.set(locale, format);
  }
  return format;
}

export function formatBRL(cents: number, locale: TLocale = defaultLocale): string {
  const format = cachedFormat(currencyFormats, locale, { style: "currency", currency: "BRL" });
  return format.format(centsToDecimalString(cents) as Intl.StringNumericLiteral);
}

export function formatAmount(cents: number, locale: TLocale = defaultLocale): string {
  const format = cachedFormat(amountFormats, locale, { style: "decimal" });
  return format.format(centsToDecimalString(cents) as Intl.StringNumericLiteral);
}

const separatorsByLocale: Record<TLocale, { decimal: string; group: string }> = {
  "pt-BR": { decimal: ",", group: "." },
  en: { decimal: ".", group: "," },
};

// The locale's decimal separator wins; the other one, alone, once and before one or two digits ("1234.56" typed
// in pt-BR), is read as the decimal point, since that is what people mean.
export function parseBRLToCents(input: string, locale: TLocale = defaultLocale): number | null {
  const text = input.replace(/R\$/i, "").replace(/[\s\u00a0\u202f]/g, "");
  if (!/^[\d.,]+$/.test(text) || !/\d/.test(text)) return null;

  const { decimal, group } = separatorsByLocale[locale];
  let decimalSeparator: string | null = null;
  if (text.includes(decimal)) {
    decimalSeparator = decimal;
  } else if (text.split(group).length === 2 && /^\d+\D\d{1,2}$/.test(text)) {
    decimalSeparator = group;
  }

  let integerPart = text;
  let fractionPart = "";
  if (decimalSeparator) {
    const index = text.lastIndexOf(decimalSeparator);
    integerPart = text.slice(0, index);
    fractionPart = text.slice(index + 1);
  }
  const groupSeparator = decimalSeparator === group ? decimal : group;
  if (!isValidGrouping(integerPart, groupSeparator)) return null;
  integerPart = integerPart.split(groupSeparator).join("");
  if (!/^\d*$/.test(integerPart) || !/^\d{0,2}$/.test(fractionPart)) return null;
  if (integerPart === "" && fractionPart === "") return null;

  const cents = Number(integerPart || "0") * 100 + Number(fractionPart.padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}

function isValidGrouping(integerPart: string, separator: string): boolean {
  if (!integerPart.includes(separator)) return true;
  return new RegExp(`^\\d{1,3}(\\${separator}\\d{3})+$`).test(integerPart);
}
