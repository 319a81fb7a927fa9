import { z } from "zod";
import { defaultPeriod, type TPeriod, toSaoPauloDay } from "@/lib/list/period";
import { ZOptionalDay } from "@/lib/list/schemas";

// `/?period=today|7d|30d` or `custom&from=…&to=…` (São Paulo days, `to` included); a stale URL shows today.

export const overviewPresets = ["today", "7d", "30d", "custom"] as const;
type TOverviewPreset = (typeof overviewPresets)[number];

export const ZOverviewSearchParams = z.object({
  period: z.enum(overviewPresets).catch("today").default("today"),
  from: ZOptionalDay,
  to: ZOptionalDay,
});
export type TOverviewSearchParams = z.output<typeof ZOverviewSearchParams>;

// A year of days keeps the daily chart readable and the aggregates bounded.
export const overviewMaxDays = 366;

export type TOverviewBucket = "day" | "hour";

export type TOverviewPeriod = TPeriod & { preset: TOverviewPreset; days: number; bucket: TOverviewBucket };

const presetDays: Record<Exclude<TOverviewPreset, "custom">, number> = { today: 1, "7d": 7, "30d": 30 };

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Custom days in either order; one day alone if one is missing, today if none, the latest `overviewMaxDays` at most. */
export function resolveOverviewPeriod(params: TOverviewSearchParams, now: Date = new Date()): TOverviewPeriod {
  let period: TPeriod;
  let preset = params.period;
  if (preset === "custom") {
    const first = params.from ?? params.to;
    const second = params.to ?? params.from;
    if (!first || !second) {
      preset = "today";
      period = defaultPeriod(now, 1);
    } else {
      const [from, to] = first <= second ? [first, second] : [second, first];
      period = { from: daysBetween(from, to) > overviewMaxDays ? addDays(to, -(overviewMaxDays - 1)) : from, to };
    }
  } else {
    period = defaultPeriod(now, presetDays[preset]);
  }
  const days = daysBetween(period.from, period.to);
  return { ...period, preset, days, bucket: days === 1 ? "hour" : "day" };
}

/** Whether the period reaches today (São Paulo): only then can a new payment change its figures. */
export function isPeriodCurrent(period: TPeriod, now: Date = new Date()): boolean {
  return period.to >= toSaoPauloDay(now);
}
