import { defaultLocale, type TLocale, timeZone } from "@/lib/i18n/config";

export type TDateInput = Date | string | number;

function toDate(value: TDateInput): Date {
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

export function formatDateTime(value: TDateInput, locale: TLocale = defaultLocale): string {
  return new Intl.DateTimeFormat(locale, dateTimeOptions).format(toDate(value));
}

export function formatDate(value: TDateInput, locale: TLocale = defaultLocale): string {
  return new Intl.DateTimeFormat(locale, dateOptions).format(toDate(value));
}
