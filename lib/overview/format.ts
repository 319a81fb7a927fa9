import type { TLocale } from "@/lib/i18n/config";

// Buckets are São Paulo wall times already ("2026-11-20" or "2026-11-20T14"): formatted as UTC so no zone moves them.
const dayFormats = new Map<TLocale, Intl.DateTimeFormat>();
const hourFormats = new Map<TLocale, Intl.DateTimeFormat>();

function cached(cache: Map<TLocale, Intl.DateTimeFormat>, locale: TLocale, options: Intl.DateTimeFormatOptions) {
  let format = cache.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...options });
    cache.set(locale, format);
  }
  return format;
}

/** "20/11" or "11/20" for a day bucket, "14:00" or "2:00 PM" for an hour bucket. */
export function formatBucketLabel(bucket: string, locale: TLocale): string {
  const [day, hour] = bucket.split("T");
  if (hour === undefined)
    return cached(dayFormats, locale, { day: "2-digit", month: "2-digit" }).format(new Date(`${day}T00:00:00Z`));
  return cached(hourFormats, locale, { hour: "2-digit", minute: "2-digit" }).format(new Date(`${day}T${hour}:00:00Z`));
}
