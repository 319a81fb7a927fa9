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
import { changeOwnPasswordAction } from "../actions";

export function ChangePasswordForm({ canCancel }: { canCancel: boolean }) {
  const t = useTranslations("account.password");
  const tCommon = useTranslations("common");
  const { fieldText, formText } = useActionErrorText();
  const [error, setError] = useState<TActionError | null>(null);
  const [mismatch, setMismatch] = useState(false);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const newPassword = String(form.get("newPassword") ?? "");
    const isMismatch = newPassword !== String(form.get("confirmPassword") ?? "");
    setMismatch(isMismatch);
    if (isMismatch) return;
    startTransition(async () => {
      const result = await changeOwnPasswordAction({
        currentPassword: String(form.get("currentPassword") ?? ""),
        newPassword,
      });
      if (!result.ok) {
        setError(result.error);
        return;
      }
      toast.success(t("done"));
      window.location.assign("/");
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
      <FormError>{error && !error.fieldErrors ? formText(error) : null}</FormError>
      <Field label={t("current")} required error={fieldText(error?.fieldErrors?.currentPassword)}>
        <Input name="currentPassword" type="password" autoComplete="current-password" required />
      </Field>
      <Field label={t("new")} description={t("newHint")} required error={fieldText(error?.fieldErrors?.newPassword)}>
        <Input name="newPassword" type="password" autoComplete="new-password" required minLength={12} maxLength={128} />
      </Field>
      <Field label={t("confirm")} required error={mismatch ? t("mismatch") : null}>
        <Input name="confirmPassword" type="password" autoComplete="new-password" required />
      </Field>
      <div className="flex justify-end gap-2">
        {canCancel ? (
          <Button asChild variant="outline">
            <Link href="/">{tCommon("cancel")}</Link>
          </Button>
        ) : null}
        <Button type="submit" disabled={isPending}>
          {t("submit")}
        </Button>
      </div>
    </form>
  );
}
