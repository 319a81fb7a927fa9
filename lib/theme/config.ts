import { z } from "zod";

export const themes = ["system", "light", "dark"] as const;
export type TTheme = (typeof themes)[number];
const defaultTheme: TTheme = "system";

export const themeCookieName = "theme";

export const ZTheme = z.enum(themes);

export function resolveTheme(value: string | undefined | null): TTheme {
  return ZTheme.safeParse(value).success ? (value as TTheme) : defaultTheme;
}

export function themeClassName(theme: TTheme): string | undefined {
  return theme === "dark" ? "dark" : theme === "system" ? "theme-system" : undefined;
}
