"use client";

import { LanguagesIcon } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";

import { PreferenceSwitcher, useSavePreference } from "@/components/preference-switcher";
import { Spinner } from "@/components/ui/spinner";
import { setLocaleAction } from "@/lib/i18n/actions";
import { isLocale, locales } from "@/lib/i18n/config";

// Short labels for the trigger; the menu shows each language's name in that language.
const shortLabels = { "pt-BR": "PT", en: "EN" } as const;

export function LocaleSwitcher() {
  const t = useTranslations("common");
  const locale = useLocale();
  // The action sets the cookie; Next re-renders the page in the new language when it returns.
  const { isPending, save } = useSavePreference(setLocaleAction);

  return (
    <PreferenceSwitcher
      label={t("language")}
      size="sm"
      disabled={isPending}
      trigger={
        <>
          {isPending ? <Spinner /> : <LanguagesIcon aria-hidden="true" />}
          <span aria-hidden="true">{isLocale(locale) ? shortLabels[locale] : locale}</span>
        </>
      }
      value={locale}
      options={locales.map((option) => ({ value: option, label: t(`languages.${option}`), lang: option }))}
      onSelect={(next) => {
        if (isLocale(next) && next !== locale) save(next);
      }}
    />
  );
}
