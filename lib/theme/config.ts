import { z } from "zod";

// "system" follows the device (prefers-color-scheme); the other two force a palette (app/globals.css).
export const themes = ["system", "light", "dark"] as const;
export type TTheme = (typeof themes)[number];
const defaultTheme: TTheme = "system";

/** Read by the root layout for the first paint, so the page never flashes the other palette. */
export const themeCookieName = "theme";

export const ZTheme = z.enum(themes);

export function resolveTheme(value: string | undefined | null): TTheme {
  return ZTheme.safeParse(value).success ? (value as TTheme) : defaultTheme;
}

/** The class on <html>: `.dark` forces the dark palette, `.theme-system` lets the device's setting decide. */
export function themeClassName(theme: TTheme): string | undefined {
  return theme === "dark" ? "dark" : theme === "system" ? "theme-system" : undefined;
}
