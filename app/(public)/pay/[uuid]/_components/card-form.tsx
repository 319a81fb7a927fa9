"use client";

import { type FormEvent, type ReactNode, startTransition, useActionState, useEffect, useRef, useState } from "react";

import { cardDigits, formatCardNumber, formatExpiry, guessCardBrand } from "@/components/card-fields/card-input-format";
import { CARD_BRAND_NAMES, isCardExpiryValid, passesLuhn, type TCardBrand } from "@/lib/shared/card";

import { payByCardAction, type TCardState } from "../actions";
import { PayFormError, PaySpinner, payLabelClassName, type TPayStyles } from "./pay-ui";

/** Labels are formatted on the server, so no money or locale code ships to the browser. */
export type TInstallmentOption = { installments: number; label: string };

/** The form's words, translated on the server; `brandDetected` holds `{brand}`. */
export type TCardFormText = {
  installmentsLegend: string;
  noInterest: string;
  total: string;
  number: string;
  brandDetected: string;
  holder: string;
  expiry: string;
  expiryPlaceholder: string;
  securityCode: string;
  submit: string;
  submitting: string;
  /** `pay.card.errors`, for the checks done in the browser before sending. */
  errors: Record<string, string>;
};

type CardFormProps = {
  linkPaymentUuid: string;
  /** Idempotency key of this rendering's payment (a double submit pays once); each answer brings the next. */
  formKey: string;
  installmentOptions: TInstallmentOption[];
  text: TCardFormText;
  styles: TPayStyles;
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

const initialState: TCardState = { status: "idle" };

/**
 * The card form. A real form posting to the action, so it works without JavaScript too (the server renders
 * the answer). Inputs are uncontrolled (nothing of the card is kept in React state) and carry the standard
 * `cc-*` autocomplete tokens. The card number and security code are never rendered back: after an answer they
 * are empty, while the installments, name and expiry the payer chose stay. With JavaScript the number is
 * grouped as typed, the brand shown, the fields checked before sending, and the whole form cleared when the
 * page comes back from the back/forward cache.
 */
export function CardForm({ linkPaymentUuid, formKey, installmentOptions, text, styles }: CardFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [state, formAction, isPending] = useActionState(payByCardAction, initialState);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [brand, setBrand] = useState<TCardBrand | null>(null);
  const choices = state.choices;

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

  if (state.status === "locked") {
    return (
      <p role="alert" className="rounded-lg border bg-card p-5 text-sm text-card-foreground">
        {state.message}
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

  const fieldError = (name: string) => {
    const key = clientErrors[name];
    return (key ? text.errors[key] : state.fieldErrors?.[name]) ?? null;
  };
  const field = (name: string, label: string, control: (props: Record<string, unknown>) => ReactNode) => {
    const id = `pay-card-${name}`;
    const error = fieldError(name);
    const described = [name === "cardNumber" && brand ? `${id}-brand` : null, error ? `${id}-error` : null]
      .filter(Boolean)
      .join(" ");
    return (
      <div data-slot="field" className="grid content-start gap-2">
        <label htmlFor={id} className={payLabelClassName}>
          {label}
        </label>
        {control({ id, "aria-invalid": error ? true : undefined, "aria-describedby": described || undefined })}
        {name === "cardNumber" && brand ? (
          <p id={`${id}-brand`} data-slot="field-description" className="text-sm text-muted-foreground">
            {text.brandDetected.replace("{brand}", CARD_BRAND_NAMES[brand])}
          </p>
        ) : null}
        {error ? (
          <p id={`${id}-error`} data-slot="field-error" className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </div>
    );
  };
  const inputClass = `${styles.input} h-11 text-base`;

  return (
    <form
      ref={formRef}
      action={formAction}
      onSubmit={onSubmit}
      noValidate
      className="grid gap-4 rounded-lg border bg-card p-5 text-card-foreground"
    >
      <input type="hidden" name="linkPaymentUuid" value={linkPaymentUuid} />
      <input type="hidden" name="formKey" value={state.formKey ?? formKey} />
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">{text.installmentsLegend}</legend>
        {installmentOptions.map((option) => (
          <label
            key={option.installments}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent"
          >
            <input
              type="radio"
              name="installments"
              value={option.installments}
              defaultChecked={option.installments === (choices?.installments ?? 1)}
              className="size-4 accent-primary"
            />
            <span className="flex-1">{option.label}</span>
            {option.installments > 1 ? <span className="text-xs text-muted-foreground">{text.noInterest}</span> : null}
          </label>
        ))}
        <p className="text-sm text-muted-foreground">{text.total}</p>
      </fieldset>

      {field("cardNumber", text.number, (props) => (
        <input
          {...props}
          name="cardNumber"
          type="text"
          inputMode="numeric"
          autoComplete="cc-number"
          autoCorrect="off"
          spellCheck={false}
          maxLength={23}
          placeholder="0000 0000 0000 0000"
          className={`${inputClass} font-mono`}
          onInput={(event) => {
            const input = event.currentTarget;
            input.value = formatCardNumber(input.value);
            setBrand(guessCardBrand(cardDigits(input.value)));
          }}
        />
      ))}
      {field("holderName", text.holder, (props) => (
        <input
          {...props}
          name="holderName"
          type="text"
          autoComplete="cc-name"
          autoCapitalize="characters"
          autoCorrect="off"
          spellCheck={false}
          maxLength={100}
          defaultValue={choices?.holderName}
          className={inputClass}
        />
      ))}
      <div className="grid grid-cols-2 gap-3">
        {field("expiry", text.expiry, (props) => (
          <input
            {...props}
            name="expiry"
            type="text"
            inputMode="numeric"
            autoComplete="cc-exp"
            maxLength={5}
            placeholder={text.expiryPlaceholder}
            defaultValue={choices?.expiry}
            className={`${inputClass} font-mono`}
            onInput={(event) => {
              event.currentTarget.value = formatExpiry(event.currentTarget.value);
            }}
          />
        ))}
        {field("securityCode", text.securityCode, (props) => (
          <input
            {...props}
            name="securityCode"
            type="text"
            inputMode="numeric"
            autoComplete="cc-csc"
            autoCorrect="off"
            spellCheck={false}
            maxLength={4}
            className={`${inputClass} font-mono`}
          />
        ))}
      </div>
      <PayFormError>{state.message}</PayFormError>
      <button type="submit" className={`${styles.button} h-12 text-base`} disabled={isPending}>
        {isPending ? (
          <span role="status" className="inline-flex items-center">
            <PaySpinner />
            <span className="sr-only">{text.submitting}</span>
          </span>
        ) : null}
        {text.submit}
      </button>
    </form>
  );
}
