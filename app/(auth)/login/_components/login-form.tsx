"use client";

import { Building2Icon, KeyRoundIcon } from "lucide-react";
import Link from "next/link";
import { type SignInResponse, signIn } from "next-auth/react";
import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { toSameOriginPath } from "@/lib/auth/callback-url";
import { parseSignInError, type TSecondFactorMethod } from "@/lib/auth/sign-in-error";
import { getPasskeyAssertion } from "./passkey-assertion";

const passkeyErrors = new Set(["passkeyCancelled", "passkeyUnsupported"]);

export function LoginForm({
  callbackUrl,
  initialError,
  isPasskeyAvailable,
  isSsoAvailable,
}: {
  callbackUrl: string;
  initialError: string | null;
  isPasskeyAvailable: boolean;
  isSsoAvailable: boolean;
}) {
  const t = useTranslations("auth.login");
  const [error, setError] = useState<string | null>(initialError);
  // A refusal of a passkey reads differently from a wrong password or code.
  const [isPasskeyError, setIsPasskeyError] = useState(false);
  const [isPending, startTransition] = useTransition();
  // Set once the password was right and the account asks for a second factor: both are sent again with the code.
  const [pendingCredentials, setPendingCredentials] = useState<{ email: string; password: string } | null>(null);
  const [secondFactors, setSecondFactors] = useState<TSecondFactorMethod[]>([]);
  const [isRecoveryCode, setIsRecoveryCode] = useState(false);

  const describeError = (code: string) => {
    if (passkeyErrors.has(code)) return t(code as "passkeyCancelled" | "passkeyUnsupported");
    const parsed = parseSignInError(code);
    if (parsed.kind === "rate-limited") return t("rateLimited", { seconds: parsed.retryAfterSeconds });
    if (parsed.kind === "passkey-counter-regressed") return t("passkeyCounterRegressed");
    if (parsed.kind === "sso-required") return t("ssoRequired");
    if (isPasskeyError) return t("invalidPasskey");
    return pendingCredentials ? t("invalidCode") : t("invalidCredentials");
  };

  function toggleRecoveryCode() {
    setIsRecoveryCode((value) => !value);
    setError(null);
  }

  function handleResult(
    result: SignInResponse | null | undefined,
    credentials: { email: string; password: string } | null,
  ) {
    if (result?.error && credentials) {
      const parsed = parseSignInError(result.error);
      if (parsed.kind === "two-factor-required") {
        setPendingCredentials(credentials);
        setSecondFactors(parsed.methods);
        return;
      }
    }
    if (!result?.ok || result.error) {
      setError(result?.error ?? "unavailable");
      return;
    }
    // A full load, not a client transition: sign-in may have switched the language cookie.
    window.location.assign(toSameOriginPath(callbackUrl, window.location.origin));
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
    setIsPasskeyError(false);
    startTransition(async () => {
      const result = await signIn("credentials", { ...credentials, ...(code ? { code } : {}), redirect: false }).catch(
        () => null,
      );
      handleResult(result, credentials);
    });
  }

  // Alone (usernameless, both factors) before the password; after it, as the second factor.
  function signInWithPasskey() {
    setError(null);
    setIsPasskeyError(true);
    startTransition(async () => {
      const assertion = await getPasskeyAssertion();
      if (!assertion.ok) {
        setError(assertion.error);
        return;
      }
      const result = await (pendingCredentials
        ? signIn("credentials", { ...pendingCredentials, passkey: assertion.response, redirect: false })
        : signIn("passkey", { response: assertion.response, redirect: false })
      ).catch(() => null);
      handleResult(result, null);
    });
  }

  const hasTotp = secondFactors.includes("totp");
  const passkeyButton = (label: string, variant: "default" | "outline") => (
    <Button type="button" variant={variant} onClick={signInWithPasskey} disabled={isPending}>
      <KeyRoundIcon aria-hidden="true" />
      {label}
    </Button>
  );

  return (
    <form onSubmit={handleSubmit} className="grid gap-4" noValidate>
      <FormError>{error ? (error === "unavailable" ? t("unavailable") : describeError(error)) : null}</FormError>
      {pendingCredentials ? (
        <>
          <p className="text-sm text-muted-foreground">
            {!hasTotp
              ? t("passkeyDescription")
              : isRecoveryCode
                ? t("recoveryCodeDescription")
                : t("twoFactorDescription")}
          </p>
          {hasTotp ? (
            <>
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
          ) : null}
          {secondFactors.includes("passkey") ? passkeyButton(t("usePasskey"), hasTotp ? "outline" : "default") : null}
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
          {isPasskeyAvailable || isSsoAvailable ? (
            <div className="flex items-center gap-3 text-xs text-muted-foreground">
              <span className="h-px flex-1 bg-border" />
              {t("or")}
              <span className="h-px flex-1 bg-border" />
            </div>
          ) : null}
          {isPasskeyAvailable ? passkeyButton(t("passkeySignIn"), "outline") : null}
          {isSsoAvailable ? (
            <Button asChild variant="outline">
              {/* A plain link: the start route answers with a redirect to the identity provider. */}
              <a href="/api/auth/sso/start">
                <Building2Icon aria-hidden="true" />
                {t("ssoSignIn")}
              </a>
            </Button>
          ) : null}
        </>
      )}
    </form>
  );
}
