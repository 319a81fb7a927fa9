"use client";

import type { ComponentProps } from "react";

import { Input } from "@/components/ui/input";
import type { TCardBrand } from "@/lib/shared/card";
import { cn } from "@/lib/utils";

import { cardDigits, formatCardNumber, formatExpiry, guessCardBrand } from "./card-input-format";

// The card inputs of the hosted pay page and the virtual terminal. Uncontrolled on purpose: the number and the
// security code live only in the DOM until the form is sent (never in React state, the URL or storage), and carry
// the standard `cc-*` autocomplete tokens.

type TCardInputProps = Omit<ComponentProps<typeof Input>, "type" | "value" | "defaultValue" | "onChange">;

/** Grouped as typed; `onBrandChange` gets the brand as soon as the prefix tells it. */
export function CardNumberInput({
  className,
  onBrandChange,
  onInput,
  ...props
}: TCardInputProps & { onBrandChange?: (brand: TCardBrand | null) => void }) {
  return (
    <Input
      inputMode="numeric"
      autoComplete="cc-number"
      autoCorrect="off"
      spellCheck={false}
      maxLength={23}
      placeholder="0000 0000 0000 0000"
      {...props}
      className={cn("font-mono", className)}
      onInput={(event) => {
        const input = event.currentTarget;
        input.value = formatCardNumber(input.value);
        onBrandChange?.(guessCardBrand(cardDigits(input.value)));
        onInput?.(event);
      }}
    />
  );
}

/** `MM/YY`, the slash added as typed. */
export function CardExpiryInput({ className, onInput, ...props }: TCardInputProps) {
  return (
    <Input
      inputMode="numeric"
      autoComplete="cc-exp"
      maxLength={5}
      {...props}
      className={cn("font-mono", className)}
      onInput={(event) => {
        event.currentTarget.value = formatExpiry(event.currentTarget.value);
        onInput?.(event);
      }}
    />
  );
}

export function CardSecurityCodeInput({ className, ...props }: TCardInputProps) {
  return (
    <Input
      inputMode="numeric"
      autoComplete="cc-csc"
      autoCorrect="off"
      spellCheck={false}
      maxLength={4}
      {...props}
      className={cn("font-mono", className)}
    />
  );
}
