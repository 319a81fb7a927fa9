"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { type FormEvent, type ReactNode, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import type { TActionError, TActionResult } from "@/lib/actions/define-action";
import { useActionErrorText } from "@/lib/actions/use-action-error";

type TSetPasswordInput = { token: string; password: string; confirmPassword: string };

/** Chooses a password through a mailed link (an invitation or a reset), then points to the sign-in page. */
export function SetPasswordForm({
  token,
  email,
  action,
  submitLabel,
  doneText,
  afterDone,
}: {
  token: string;
  email: string;
  action: (input: TSetPasswordInput) => Promise<TActionResult<unknown>>;
  submitLabel: string;
  doneText: string;
  afterDone?: ReactNode;
}) {
  const t = useTranslations("auth.setPassword");
  const { fieldText, formText } = useActionErrorText();
  const [error, setError] = useState<TActionError | null>(null);
  const [isDone, setIsDone] = useState(false);
  const [isPending, startTransition] = useTransition();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(async () => {
      const result = await action({
        token,
        password: String(form.get("password") ?? ""),
        confirmPassword: String(form.get("confirmPassword") ?? ""),
      });
      setError(result.ok ? null : result.error);
      setIsDone(result.ok);
    });
  }

  if (isDone) {
    return (
      <div className="grid gap-4">
        <p role="status" className="text-sm">
          {doneText}
        </p>
        <Button asChild>
          <Link href="/login">{t("signIn")}</Link>
        </Button>
        {afterDone}
      </div>
    );
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
      <FormError>{error && !error.fieldErrors ? formText(error) : null}</FormError>
      <Field label={t("email")}>
        <Input name="username" type="email" autoComplete="username" value={email} readOnly />
      </Field>
      <Field
        label={t("password")}
        description={t("passwordHint")}
        required
        error={fieldText(error?.fieldErrors?.password)}
      >
        <Input name="password" type="password" autoComplete="new-password" required maxLength={128} />
      </Field>
      <Field label={t("confirmPassword")} required error={fieldText(error?.fieldErrors?.confirmPassword)}>
        <Input name="confirmPassword" type="password" autoComplete="new-password" required maxLength={128} />
      </Field>
      <Button type="submit" disabled={isPending}>
        {isPending ? <Spinner /> : null}
        {submitLabel}
      </Button>
    </form>
  );
}
