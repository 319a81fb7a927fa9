import type { TPermissionHolder } from "@/lib/auth/permissions";
import { formatAmount } from "@/lib/format/money";
import { type TLocale, timeZone } from "@/lib/i18n/config";
import en from "@/lib/i18n/messages/en.json";
import ptBR from "@/lib/i18n/messages/pt-BR.json";
import { documentFor } from "@/lib/security/personal-data";

// Amounts without the currency sign ("1.234,56" / "1,234.56") so a spreadsheet reads a number; dates in São Paulo time.

export type TCellFormat = {
  locale: TLocale;
  amount: (cents: number | null | undefined) => string;
  dateTime: (date: Date | null | undefined) => string;
  text: (value: string | null | undefined) => string;
  // A payer's CPF/CNPJ: whole for admins, masked for STAFF (lib/security/personal-data.ts).
  document: (value: string | null | undefined) => string;
  yesNo: (value: boolean) => string;
};

export const exportMessages: Record<TLocale, typeof en.common> = { "pt-BR": ptBR.common, en: en.common };

const hourMs = 3_600_000;
const offsetParts = new Intl.DateTimeFormat("en-US", {
  timeZone,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});
const offsetByHour = new Map<number, number>();

// Intl costs ~10 µs a call, too much for a million rows: São Paulo's offset is read once per UTC hour, the rest is arithmetic.
function saoPauloOffsetMs(ms: number): number {
  const hour = Math.floor(ms / hourMs);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    const at = hour * hourMs;
    const parts = Object.fromEntries(offsetParts.formatToParts(new Date(at)).map((part) => [part.type, part.value]));
    const local = Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
    );
    offset = local - at;
    if (offsetByHour.size > 100_000) offsetByHour.clear();
    offsetByHour.set(hour, offset);
  }
  return offset;
}

const pad = (value: number) => String(value).padStart(2, "0");

/** "24/11/2026 09:15:30" (pt-BR) or "11/24/2026 09:15:30" (en), São Paulo time. */
export function formatExportDateTime(date: Date, locale: TLocale): string {
  const local = new Date(date.getTime() + saoPauloOffsetMs(date.getTime()));
  const day = pad(local.getUTCDate());
  const month = pad(local.getUTCMonth() + 1);
  const year = local.getUTCFullYear();
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  return locale === "en" ? `${month}/${day}/${year} ${time}` : `${day}/${month}/${year} ${time}`;
}

export function cellFormat(locale: TLocale, viewer: TPermissionHolder): TCellFormat {
  return {
    locale,
    amount: (cents) => (cents === null || cents === undefined ? "" : formatAmount(cents, locale)),
    dateTime: (date) => (date ? formatExportDateTime(date, locale) : ""),
    // Formulas are defused by the writer, for every text cell (csv-writer.ts).
    text: (value) => value ?? "",
    document: (value) => (value ? documentFor(viewer, value) : ""),
    yesNo: (value) => (value ? exportMessages[locale].export.yes : exportMessages[locale].export.no),
  };
}
