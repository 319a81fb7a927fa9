"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { MoneyInput } from "@/components/money-input";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { setDailyMoneyReturnLimitAction } from "../actions";

// The money controls an admin sets here; R$ 0,00 turns one off. Raising one or turning it off waits for a
// second admin (the action answers `pending`), tightening applies at once.
const moneySettings = {
  dailyMoneyReturnLimit: (cents: number) => setDailyMoneyReturnLimitAction({ limitCents: cents }),
} as const;

export function MoneySettingForm({ setting, valueCents }: { setting: keyof typeof moneySettings; valueCents: number }) {
  const t = useTranslations(`settings.${setting}`);
  const tChanges = useTranslations("adminChanges");
  const { formText } = useActionErrorText("settings");
  const [draftCents, setDraftCents] = useState<number | null>(valueCents);
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    startTransition(async () => {
      const result = await moneySettings[setting](draftCents ?? 0);
      setError(result.ok ? null : result.error);
      if (result.ok) toast.success(result.data.status === "pending" ? tChanges("held") : t("saved"));
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid max-w-sm gap-4">
      <FormError>{error ? formText(error) : null}</FormError>
      <Field label={t("label")}>
        <MoneyInput valueCents={draftCents} onValueChange={setDraftCents} />
      </Field>
      <Button type="submit" className="justify-self-start" disabled={isPending}>
        {t("save")}
      </Button>
    </form>
  );
}
