"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/native-select";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import type { TTwoFactorRequirement } from "@/lib/settings/types";
import { setTwoFactorRequirementAction } from "../actions";

const requirements: TTwoFactorRequirement[] = ["off", "admins", "everyone"];

export function TwoFactorPolicyForm({ requirement }: { requirement: TTwoFactorRequirement }) {
  const t = useTranslations("settings.twoFactor");
  const { formText } = useActionErrorText("settings");
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get("requirement") ?? "") as TTwoFactorRequirement;
    startTransition(async () => {
      const result = await setTwoFactorRequirementAction({ requirement: value });
      setError(result.ok ? null : result.error);
      if (result.ok) toast.success(t("saved"));
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid max-w-sm gap-4">
      <FormError>{error ? formText(error) : null}</FormError>
      <Field label={t("label")}>
        <NativeSelect name="requirement" defaultValue={requirement}>
          {requirements.map((value) => (
            <option key={value} value={value}>
              {t(`options.${value}`)}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Button type="submit" className="justify-self-start" disabled={isPending}>
        {t("save")}
      </Button>
    </form>
  );
}
