"use client";

import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { parseSignInError } from "@/lib/auth/sign-in-error";

export function LoginForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const t = useTranslations("auth.login");
  const [error, setError] = useState<string | null>(initialError);
  const [isPending, startTransition] = useTransition();

  const describeError = (code: string) => {
    const parsed = parseSignInError(code);
    return parsed.kind === "rate-limited"
      ? t("rateLimited", { minutes: parsed.retryAfterMinutes })
      : t("invalidCredentials");
  };

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(async () => {
      setError(null);
      const result = await signIn("credentials", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        redirect: false,
      }).catch(() => null);
      if (!result?.ok || result.error) {
        setError(result?.error ?? "unavailable");
        return;
      }
      // A full load, not a client transition: sign-in may have switched the language cookie.
      window.location.assign(callbackUrl);
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
      <FormError>{error ? (error === "unavailable" ? t("unavailable") : describeError(error)) : null}</FormError>
      <Field label={t("email")} required>
        <Input name="email" type="email" autoComplete="username" autoFocus required />
      </Field>
      <Field label={t("password")} required>
        <Input name="password" type="password" autoComplete="current-password" required />
      </Field>
      <Button type="submit" disabled={isPending}>
        {isPending ? <Spinner /> : null}
        {t("submit")}
      </Button>
    </form>
  );
}
