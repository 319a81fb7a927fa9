import { timeZone } from "@/lib/i18n/config";

// List periods are calendar days in São Paulo (YYYY-MM-DD), as the pages show them and as the
// gateway reads zone-less query date-times (Brasília time).

export type TPeriod = { from: string; to: string };

export const defaultPeriodDays = 7;

const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });

/** The São Paulo calendar day of an instant: `2026-11-21`. */
export function toSaoPauloDay(instant: Date): string {
  return dayFormat.format(instant);
}

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Today and the days before it: the last 7 days unless told otherwise. */
export function defaultPeriod(now: Date = new Date(), days: number = defaultPeriodDays): TPeriod {
  const to = toSaoPauloDay(now);
  return { from: addDays(to, -(days - 1)), to };
}

function startOfSaoPauloDay(day: string): Date {
  const offset = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(new Date(`${day}T12:00:00Z`))
    .find((part) => part.type === "timeZoneName")
    ?.value.replace("GMT", "");
  return new Date(`${day}T00:00:00${offset || "Z"}`);
}

/** Instants bounding the period, `to` day included, for the mirror's queries; a missing end is open. */
export function periodBounds(period: Partial<TPeriod>): { gte?: Date; lt?: Date } {
  return {
    gte: period.from ? startOfSaoPauloDay(period.from) : undefined,
    lt: period.to ? startOfSaoPauloDay(addDays(period.to, 1)) : undefined,
  };
}

/** The upstream list's `initialDate`/`endDate` (inclusive, zone-less = Brasília time, spec 4.4). */
export function toUpstreamPeriod(period: TPeriod): { initialDate: string; endDate: string } {
  return { initialDate: `${period.from}T00:00:00`, endDate: `${period.to}T23:59:59.999` };
}
