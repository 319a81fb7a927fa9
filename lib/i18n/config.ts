import { z } from "zod";

export const locales = ["pt-BR", "en"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "pt-BR";

/** Name of the cookie that carries the chosen locale (next-intl's conventional name). */
export const localeCookieName = "NEXT_LOCALE";

/** Every date and time the app shows is in this zone, whatever the server's or browser's zone. */
export const timeZone = "America/Sao_Paulo";

export const ZLocale = z.enum(locales);

export function isLocale(value: unknown): value is Locale {
  return (locales as readonly unknown[]).includes(value);
}

/** The locale for a cookie value, falling back to the default for a missing or unknown one. */
export function resolveLocale(value: string | undefined | null): Locale {
  return isLocale(value) ? value : defaultLocale;
}
