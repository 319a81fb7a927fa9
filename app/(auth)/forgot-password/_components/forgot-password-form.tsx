"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import type { TActionError } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { requestPasswordResetAction } from "../actions";

export function ForgotPasswordForm() {
  const t = useTranslations("auth.forgotPassword");
  const { fieldText, formText } = useActionErrorText();
  const [error, setError] = useState<TActionError | null>(null);
  const [isSent, setIsSent] = useState(false);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(async () => {
      const result = await requestPasswordResetAction({ email: String(form.get("email") ?? "") });
      setError(result.ok ? null : result.error);
      setIsSent(result.ok);
    });
  }

  if (isSent) {
    return (
      <div className="grid gap-4">
        <p role="status" className="text-sm">
          {t("sent")}
        </p>
        <Link href="/login" className="text-sm underline underline-offset-4">
          {t("backToSignIn")}
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
      <FormError>{error && !error.fieldErrors ? formText(error) : null}</FormError>
      <Field label={t("email")} required error={fieldText(error?.fieldErrors?.email)}>
        <Input name="email" type="email" autoComplete="username" autoFocus required />
      </Field>
      <Button type="submit" disabled={isPending}>
        {isPending ? <Spinner /> : null}
        {t("submit")}
      </Button>
      <Link href="/login" className="text-sm underline underline-offset-4">
        {t("backToSignIn")}
      </Link>
    </form>
  );
}
