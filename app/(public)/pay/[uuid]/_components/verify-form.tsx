"use client";

import { useTranslations } from "next-intl";
import { useActionState } from "react";

import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";

import { type TVerifyState, verifyCodeAction } from "../actions";

const initialState: TVerifyState = { status: "idle" };

/** Step 1: the code the merchant sent by another channel. A wrong code says nothing about the link. */
export function VerifyForm({ linkPaymentUuid }: { linkPaymentUuid: string }) {
  const t = useTranslations("pay.verify");
  const [state, formAction, isPending] = useActionState(verifyCodeAction.bind(null, linkPaymentUuid), initialState);
  const error =
    state.status === "wrong"
      ? t("wrong")
      : state.status === "limited"
        ? state.retryMinutes > 90
          ? t("limitedHours", { hours: Math.ceil(state.retryMinutes / 60) })
          : t("limited", { minutes: state.retryMinutes })
        : state.status === "locked" || state.status === "unavailable"
          ? t(state.status)
          : null;

  return (
    <form action={formAction} className="grid gap-4 rounded-lg border bg-card p-5 text-card-foreground">
      <div className="grid gap-1.5">
        <h1 className="text-lg font-semibold">{t("title")}</h1>
        <p className="text-sm text-muted-foreground">{t("description")}</p>
      </div>
      <div className="grid gap-2">
        <label htmlFor="pay-verification-code" className="text-sm font-medium">
          {t("label")}
        </label>
        <Input
          id="pay-verification-code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="\d{6}"
          minLength={6}
          maxLength={6}
          required
          aria-describedby="pay-verification-code-hint"
          aria-invalid={error ? true : undefined}
          className="h-12 text-center font-mono text-2xl tracking-[0.4em]"
        />
        <p id="pay-verification-code-hint" className="text-sm text-muted-foreground">
          {t("hint")}
        </p>
      </div>
      <FormError>{error}</FormError>
      <Button type="submit" size="lg" className="h-11" disabled={isPending}>
        {isPending ? <Spinner /> : null}
        {t("submit")}
      </Button>
    </form>
  );
}
