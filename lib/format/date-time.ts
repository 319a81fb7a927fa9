import { defaultLocale, type Locale, timeZone } from "@/lib/i18n/config";

export type DateInput = Date | string | number;

function toDate(value: DateInput): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Invalid date: ${String(value)}`);
  return date;
}

const dateTimeOptions: Intl.DateTimeFormatOptions = {
  timeZone,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
};
const dateOptions: Intl.DateTimeFormatOptions = { timeZone, day: "2-digit", month: "2-digit", year: "numeric" };

/** Date and time in São Paulo (`21/11/2025 14:30` in pt-BR), whatever the server's or browser's zone. */
export function formatDateTime(value: DateInput, locale: Locale = defaultLocale): string {
  return new Intl.DateTimeFormat(locale, dateTimeOptions).format(toDate(value));
}

/** Calendar date in São Paulo (`21/11/2025` in pt-BR): a payment at 23:30 there is still that day. */
export function formatDate(value: DateInput, locale: Locale = defaultLocale): string {
  return new Intl.DateTimeFormat(locale, dateOptions).format(toDate(value));
}
