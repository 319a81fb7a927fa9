"use client";

import { type ReactNode, useActionState } from "react";

import { startPixAction, type TPixState } from "../actions";
import { CardForm, type TCardFormText, type TInstallmentOption } from "./card-form";
import type { TPayStyles } from "./pay-ui";
import { PixPanel, type TPixText } from "./pix-panel";

type TMethodOption = { value: "card" | "pix"; label: string; icon: ReactNode };

type PaymentMethodsProps = {
  linkPaymentUuid: string;
  legend: string;
  /** The accepted methods, icons drawn on the server. One method: `only` is its heading. */
  methods: TMethodOption[];
  only: string;
  /** The card form, or the server's message when card attempts are locked (null: no card). */
  card: { formKey: string; installmentOptions: TInstallmentOption[]; text: TCardFormText } | { locked: string } | null;
  pix: TPixText | null;
  styles: TPayStyles;
};

const initialPixState: TPixState = { status: "idle" };

/**
 * Step 2: the accepted methods as a radio group (when there are two), then the chosen one's form. The
 * choice shows its panel by CSS alone (`:has(:checked)`), so it works without JavaScript; after a Pix form
 * was sent the Pix panel is the one chosen.
 */
export function PaymentMethods({ linkPaymentUuid, legend, methods, only, card, pix, styles }: PaymentMethodsProps) {
  const [pixState, pixAction, isPixPending] = useActionState(startPixAction, initialPixState);
  const chosen = pixState.status !== "idle" || !card ? "pix" : "card";

  return (
    <div className="grid gap-4 [&:has(#pay-method-card:checked)_[data-method=pix]]:hidden [&:has(#pay-method-pix:checked)_[data-method=card]]:hidden">
      {methods.length > 1 ? (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">{legend}</legend>
          <div className="grid grid-cols-2 gap-2">
            {methods.map(({ value, label, icon }) => (
              <label
                key={value}
                className="flex h-12 cursor-pointer items-center justify-center gap-2 rounded-md border bg-background text-sm font-medium has-[:checked]:border-primary has-[:checked]:bg-accent has-[:checked]:ring-1 has-[:checked]:ring-primary has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
              >
                <input
                  id={`pay-method-${value}`}
                  type="radio"
                  name="payment-method"
                  value={value}
                  defaultChecked={chosen === value}
                  className="sr-only"
                />
                {icon}
                {label}
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        <h2 className="text-sm font-medium">{only}</h2>
      )}
      {card ? (
        <div data-method="card" className="grid">
          {"locked" in card ? (
            <p role="alert" className="rounded-lg border bg-card p-5 text-sm text-card-foreground">
              {card.locked}
            </p>
          ) : (
            <CardForm
              linkPaymentUuid={linkPaymentUuid}
              formKey={card.formKey}
              installmentOptions={card.installmentOptions}
              text={card.text}
              styles={styles}
            />
          )}
        </div>
      ) : null}
      {pix ? (
        <div data-method="pix" className="grid">
          <PixPanel
            linkPaymentUuid={linkPaymentUuid}
            state={pixState}
            formAction={pixAction}
            isPending={isPixPending}
            text={pix}
            styles={styles}
          />
        </div>
      ) : null}
    </div>
  );
}
