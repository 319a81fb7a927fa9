"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { disableTwoFactorAction } from "../actions";

export function DisableTwoFactorForm() {
  const t = useTranslations("account.security");
  const tCommon = useTranslations("common");
  const { fieldText, formText } = useActionErrorText("account.security");
  const [error, setError] = useState<TActionError | null>(null);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "");
    startTransition(async () => {
      const result = await disableTwoFactorAction({ code });
      if (!result.ok) {
        setError(result.error);
        return;
      }
      toast.success(t("disabled"));
      window.location.assign("/account/security");
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
      <FormError>{error && !error.fieldErrors ? formText(error) : null}</FormError>
      <Field label={t("code")} description={t("disableHint")} required error={fieldText(error?.fieldErrors?.code)}>
        <Input name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required />
      </Field>
      <div className="flex justify-end gap-2">
        <Button asChild variant="outline">
          <Link href="/">{tCommon("back")}</Link>
        </Button>
        <Button type="submit" variant="destructive" disabled={isPending}>
          {t("disable")}
        </Button>
      </div>
    </form>
  );
}
