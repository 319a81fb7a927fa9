"use client";

import { useActionState } from "react";

import { type TVerifyState, verifyCodeAction } from "../actions";
import { PayFormError, PaySpinner, type TPayStyles } from "./pay-ui";

const initialState: TVerifyState = { status: "idle" };

export type TVerifyText = { title: string; description: string; label: string; hint: string; submit: string };

/**
 * Step 1: the code the merchant sent by another channel. A wrong code says nothing about the link. A real
 * form posting to the action: without JavaScript the server answers with the page and the message.
 */
export function VerifyForm({
  linkPaymentUuid,
  text,
  styles,
}: {
  linkPaymentUuid: string;
  text: TVerifyText;
  styles: TPayStyles;
}) {
  const [state, formAction, isPending] = useActionState(verifyCodeAction, initialState);
  const error = state.message ?? null;

  return (
    <form action={formAction} className="grid gap-4 rounded-lg border bg-card p-5 text-card-foreground">
      <input type="hidden" name="linkPaymentUuid" value={linkPaymentUuid} />
      <div className="grid gap-1.5">
        <h1 className="text-lg font-semibold">{text.title}</h1>
        <p className="text-sm text-muted-foreground">{text.description}</p>
      </div>
      <div className="grid gap-2">
        <label htmlFor="pay-verification-code" className="text-sm font-medium">
          {text.label}
        </label>
        <input
          id="pay-verification-code"
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          // Spec 2.6: tokenVerificacao is an integer of no fixed length (lib/links/schemas.ts, ZLinkVerificationCode).
          pattern="-?\d{1,16}"
          maxLength={17}
          required
          aria-describedby="pay-verification-code-hint"
          aria-invalid={error ? true : undefined}
          className={`${styles.input} h-12 text-center font-mono text-2xl tracking-[0.4em]`}
        />
        <p id="pay-verification-code-hint" className="text-sm text-muted-foreground">
          {text.hint}
        </p>
      </div>
      <PayFormError>{error}</PayFormError>
      <button type="submit" className={`${styles.button} h-11`} disabled={isPending}>
        {isPending ? <PaySpinner /> : null}
        {text.submit}
      </button>
    </form>
  );
}
