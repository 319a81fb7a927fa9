"use client";

import { MonitorIcon, MoonIcon, SunIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { PreferenceSwitcher, useSavePreference } from "@/components/preference-switcher";
import { setThemeAction } from "@/lib/theme/actions";
import { type TTheme, themeClassName, themes, ZTheme } from "@/lib/theme/config";

const icons = { system: MonitorIcon, light: SunIcon, dark: MoonIcon } as const;

/** System, light or dark: applied at once on <html>, then kept in a cookie and on the account. */
export function ThemeSwitcher({ initialTheme }: { initialTheme: TTheme }) {
  const t = useTranslations("common.theme");
  const [theme, setTheme] = useState<TTheme>(initialTheme);
  const { save } = useSavePreference(setThemeAction);
  const Icon = icons[theme];

  function changeTheme(value: string) {
    const next = ZTheme.safeParse(value);
    if (!next.success || next.data === theme) return;
    setTheme(next.data);
    const root = document.documentElement;
    root.classList.remove("dark", "theme-system");
    const className = themeClassName(next.data);
    if (className) root.classList.add(className);
    save(next.data);
  }

  return (
    <PreferenceSwitcher
      label={t("label")}
      title={t("label")}
      size="icon"
      trigger={<Icon aria-hidden="true" />}
      value={theme}
      options={themes.map((option) => ({ value: option, label: t(option) }))}
      onSelect={changeTheme}
    />
  );
}
