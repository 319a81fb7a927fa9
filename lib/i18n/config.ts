import { z } from "zod";

export const locales = ["pt-BR", "en"] as const;
export type TLocale = (typeof locales)[number];
export const defaultLocale: TLocale = "pt-BR";

export const localeCookieName = "NEXT_LOCALE";

export const timeZone = "America/Sao_Paulo";

export const ZLocale = z.enum(locales);

export function isLocale(value: unknown): value is TLocale {
  return (locales as readonly unknown[]).includes(value);
}

export function resolveLocale(value: string | undefined | null): TLocale {
  return isLocale(value) ? value : defaultLocale;
}
