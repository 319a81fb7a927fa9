"use client";

import { MonitorIcon, MoonIcon, SunIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { setThemeAction } from "@/lib/theme/actions";
import { type TTheme, themeClassName, themes, ZTheme } from "@/lib/theme/config";

const icons = { system: MonitorIcon, light: SunIcon, dark: MoonIcon } as const;

/** System, light or dark: applied at once on <html>, then kept in a cookie and on the account. */
export function ThemeSwitcher({ initialTheme }: { initialTheme: TTheme }) {
  const t = useTranslations("common.theme");
  const [theme, setTheme] = useState<TTheme>(initialTheme);
  const [, startTransition] = useTransition();
  const Icon = icons[theme];

  function changeTheme(value: string) {
    const next = ZTheme.safeParse(value);
    if (!next.success || next.data === theme) return;
    setTheme(next.data);
    const root = document.documentElement;
    root.classList.remove("dark", "theme-system");
    const className = themeClassName(next.data);
    if (className) root.classList.add(className);
    startTransition(async () => {
      const result = await setThemeAction(next.data);
      if (!result.ok) toast.error(result.error.message);
    });
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={t("label")} title={t("label")}>
          <Icon aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>{t("label")}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={theme} onValueChange={changeTheme}>
          {themes.map((option) => (
            <DropdownMenuRadioItem key={option} value={option}>
              {t(option)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
