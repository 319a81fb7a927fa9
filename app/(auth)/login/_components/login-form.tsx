"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { toSameOriginPath } from "@/lib/auth/callback-url";
import { parseSignInError } from "@/lib/auth/sign-in-error";

export function LoginForm({ callbackUrl, initialError }: { callbackUrl: string; initialError: string | null }) {
  const t = useTranslations("auth.login");
  const [error, setError] = useState<string | null>(initialError);
  const [isPending, startTransition] = useTransition();
  // Set once the password was right and the account asks for a second factor: both are sent again with the code.
  const [pendingCredentials, setPendingCredentials] = useState<{ email: string; password: string } | null>(null);
  const [isRecoveryCode, setIsRecoveryCode] = useState(false);

  const describeError = (code: string) => {
    const parsed = parseSignInError(code);
    if (parsed.kind === "rate-limited") return t("rateLimited", { seconds: parsed.retryAfterSeconds });
    return pendingCredentials ? t("invalidCode") : t("invalidCredentials");
  };

  function toggleRecoveryCode() {
    setIsRecoveryCode((value) => !value);
    setError(null);
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const credentials = pendingCredentials ?? {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
    };
    const code = pendingCredentials ? String(form.get("code") ?? "") : undefined;
    // Outside the transition, so the last answer's error is gone while this attempt runs.
    setError(null);
    startTransition(async () => {
      const result = await signIn("credentials", { ...credentials, ...(code ? { code } : {}), redirect: false }).catch(
        () => null,
      );
      if (result?.error && parseSignInError(result.error).kind === "two-factor-required") {
        setPendingCredentials(credentials);
        return;
      }
      if (!result?.ok || result.error) {
        setError(result?.error ?? "unavailable");
        return;
      }
      // A full load, not a client transition: sign-in may have switched the language cookie.
      window.location.assign(toSameOriginPath(callbackUrl, window.location.origin));
    });
  }

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
      <FormError>{error ? (error === "unavailable" ? t("unavailable") : describeError(error)) : null}</FormError>
      {pendingCredentials ? (
        <>
          <p className="text-sm text-muted-foreground">
            {isRecoveryCode ? t("recoveryCodeDescription") : t("twoFactorDescription")}
          </p>
          <Field label={isRecoveryCode ? t("recoveryCode") : t("twoFactorCode")} required>
            <Input
              key={isRecoveryCode ? "recovery" : "totp"}
              name="code"
              autoComplete="one-time-code"
              inputMode={isRecoveryCode ? "text" : "numeric"}
              maxLength={isRecoveryCode ? 11 : 6}
              autoFocus
              required
            />
          </Field>
          <Button type="button" variant="link" className="justify-self-start px-0" onClick={toggleRecoveryCode}>
            {isRecoveryCode ? t("useAuthenticator") : t("useRecoveryCode")}
          </Button>
          <Button type="submit" disabled={isPending}>
            {isPending ? <Spinner /> : null}
            {t("verify")}
          </Button>
        </>
      ) : (
        <>
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
          <Link href="/forgot-password" className="justify-self-start text-sm underline underline-offset-4">
            {t("forgotPassword")}
          </Link>
        </>
      )}
    </form>
  );
}
