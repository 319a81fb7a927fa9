"use client";

import { LanguagesIcon } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
import { useTransition } from "react";
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
import { Spinner } from "@/components/ui/spinner";
import { setLocaleAction } from "@/lib/i18n/actions";
import { isLocale, locales } from "@/lib/i18n/config";

// Short labels for the trigger; the menu shows each language's name in that language.
const shortLabels = { "pt-BR": "PT", en: "EN" } as const;

export function LocaleSwitcher() {
  const t = useTranslations("common");
  const locale = useLocale();
  const [isPending, startTransition] = useTransition();

  function changeLocale(next: string) {
    if (!isLocale(next) || next === locale) return;
    startTransition(async () => {
      // The action sets the cookie; Next re-renders the page in the new language when it returns.
      const result = await setLocaleAction(next);
      if (!result.ok) toast.error(result.error.message);
    });
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={t("language")} disabled={isPending}>
          {isPending ? <Spinner /> : <LanguagesIcon aria-hidden="true" />}
          <span aria-hidden="true">{isLocale(locale) ? shortLabels[locale] : locale}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>{t("language")}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={locale} onValueChange={changeLocale}>
          {locales.map((option) => (
            <DropdownMenuRadioItem key={option} value={option} lang={option}>
              {t(`languages.${option}`)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
