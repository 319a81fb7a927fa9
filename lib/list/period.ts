import { timeZone } from "@/lib/i18n/config";

// List periods are São Paulo calendar days (YYYY-MM-DD): the gateway reads zone-less date-times as Brasília time.

export type TPeriod = { from: string; to: string };

const defaultPeriodDays = 7;

const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });

export function toSaoPauloDay(instant: Date): string {
  return dayFormat.format(instant);
}

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

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

// `to` day included; a missing end is open.
export function periodBounds(period: Partial<TPeriod>): { gte?: Date; lt?: Date } {
  return {
    gte: period.from ? startOfSaoPauloDay(period.from) : undefined,
    lt: period.to ? startOfSaoPauloDay(addDays(period.to, 1)) : undefined,
  };
}

// Inclusive, zone-less = Brasília time (spec 4.4).
export function toUpstreamPeriod(period: TPeriod): { initialDate: string; endDate: string } {
  return { initialDate: `${period.from}T00:00:00`, endDate: `${period.to}T23:59:59.999` };
}
