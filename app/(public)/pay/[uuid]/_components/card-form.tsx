"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, startTransition, useActionState, useEffect, useRef, useState } from "react";

import { CardExpiryInput, CardNumberInput, CardSecurityCodeInput } from "@/components/card-fields/card-fields";
import { cardDigits, guessCardBrand } from "@/components/card-fields/card-input-format";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { CARD_BRAND_NAMES, isCardExpiryValid, passesLuhn, type TCardBrand } from "@/lib/shared/card";

import { payByCardAction, type TCardState } from "../actions";

const initialState: TCardState = { status: "idle" };

/** Labels are formatted on the server, so no money or locale code ships to the browser. */
export type TInstallmentOption = { installments: number; label: string };

type CardFormProps = {
  linkPaymentUuid: string;
  amountLabel: string;
  installmentOptions: TInstallmentOption[];
  // Card attempts used up until then (ISO 8601): the form gives way to a message.
  lockedUntil: string | null;
};

// The checks the server repeats (lib/links/pay-page.ts), done here first so a typo is caught
// before anything leaves the browser. Values are message keys of `pay.card.errors`.
function validate(form: HTMLFormElement): Record<string, string> {
  const value = (name: string) => String(new FormData(form).get(name) ?? "").trim();
  const errors: Record<string, string> = {};
  const number = cardDigits(value("cardNumber"));
  if (!passesLuhn(number)) errors.cardNumber = "cardNumberInvalid";
  else if (!guessCardBrand(number)) errors.cardNumber = "cardBrandUnsupported";
  if (value("holderName").length < 2) errors.holderName = "holderNameRequired";
  if (!/^(0[1-9]|1[0-2])\/\d{2}$/.test(value("expiry"))) errors.expiry = "expiryInvalid";
  else if (!isCardExpiryValid(value("expiry"))) errors.expiry = "expiryPast";
  if (!/^\d{3,4}$/.test(value("securityCode"))) errors.securityCode = "securityCodeInvalid";
  return errors;
}

/**
 * The card form. Inputs are uncontrolled (nothing of the card is kept in React state) and carry the
 * standard `cc-*` autocomplete tokens. After an answer only the card number and security code are
 * cleared (a retry is usually another card); the payer's installments, name and expiry stay. The whole
 * form is cleared when the page comes back from the back/forward cache.
 */
export function CardForm({ linkPaymentUuid, amountLabel, installmentOptions, lockedUntil }: CardFormProps) {
  const t = useTranslations("pay.card");
  const formRef = useRef<HTMLFormElement>(null);
  const [state, formAction, isPending] = useActionState(payByCardAction.bind(null, linkPaymentUuid), initialState);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [brand, setBrand] = useState<TCardBrand | null>(null);

  useEffect(() => {
    const clearOnRestore = (event: PageTransitionEvent) => {
      if (event.persisted) formRef.current?.reset();
    };
    window.addEventListener("pageshow", clearOnRestore);
    return () => window.removeEventListener("pageshow", clearOnRestore);
  }, []);

  // After each answer the card number and security code go; the brand shown follows the number.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every new answer, which is what `state` marks
  useEffect(() => {
    for (const name of ["cardNumber", "securityCode"]) {
      const input = formRef.current?.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = "";
    }
    setBrand(null);
  }, [state]);

  const serverErrors = state.status === "invalid" ? state.fieldErrors : {};
  const fieldError = (name: string) => {
    const key = clientErrors[name] ?? serverErrors[name];
    return key ? t(`errors.${key}`) : null;
  };
  const formMessage =
    state.status === "refused"
      ? t(`refusal.${state.messageKey}`)
      : state.status === "invalid" && serverErrors.form
        ? t("errors.cardRejected")
        : state.status === "accessExpired" ||
            state.status === "notPayable" ||
            state.status === "busy" ||
            state.status === "unavailable"
          ? t(`outcome.${state.status}`)
          : null;

  const lockedAt = state.status === "locked" ? state.lockedUntil : lockedUntil;
  if (lockedAt) {
    return (
      <p role="alert" className="rounded-lg border bg-card p-5 text-sm text-card-foreground">
        {t("locked", { until: new Date(lockedAt) })}
      </p>
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // Sent by hand rather than through `action`: React resets a form after its action, which would also
    // drop the installments, name and expiry the payer chose.
    event.preventDefault();
    const errors = validate(event.currentTarget);
    setClientErrors(errors);
    if (Object.keys(errors).length > 0 || isPending) return;
    const data = new FormData(event.currentTarget);
    startTransition(() => formAction(data));
  }

  return (
    <form
      ref={formRef}
      action={formAction}
      onSubmit={onSubmit}
      noValidate
      className="grid gap-4 rounded-lg border bg-card p-5 text-card-foreground"
    >
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">{t("installmentsLegend")}</legend>
        {installmentOptions.map((option) => (
          <label
            key={option.installments}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent"
          >
            <input
              type="radio"
              name="installments"
              value={option.installments}
              defaultChecked={option.installments === 1}
              className="size-4 accent-primary"
            />
            <span className="flex-1">{option.label}</span>
            {option.installments > 1 ? <span className="text-xs text-muted-foreground">{t("noInterest")}</span> : null}
          </label>
        ))}
        <p className="text-sm text-muted-foreground">{t("total", { amount: amountLabel })}</p>
      </fieldset>

      <Field
        label={t("number")}
        error={fieldError("cardNumber")}
        description={brand ? t("brandDetected", { brand: CARD_BRAND_NAMES[brand] }) : undefined}
      >
        <CardNumberInput name="cardNumber" className="h-11 text-base" onBrandChange={setBrand} />
      </Field>
      <Field label={t("holder")} error={fieldError("holderName")}>
        <Input
          name="holderName"
          autoComplete="cc-name"
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          maxLength={100}
          className="h-11 text-base"
        />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label={t("expiry")} error={fieldError("expiry")}>
          <CardExpiryInput name="expiry" placeholder={t("expiryPlaceholder")} className="h-11 text-base" />
        </Field>
        <Field label={t("securityCode")} error={fieldError("securityCode")}>
          <CardSecurityCodeInput name="securityCode" className="h-11 text-base" />
        </Field>
      </div>
      <FormError>{formMessage}</FormError>
      <Button type="submit" size="lg" className="h-12 text-base" disabled={isPending}>
        {isPending ? <Spinner label={t("submitting")} /> : null}
        {t("submit", { amount: amountLabel })}
      </Button>
    </form>
  );
}
