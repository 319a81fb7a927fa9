"use client";

import { useLocale } from "next-intl";
import { type ClipboardEvent, type ComponentProps, useState } from "react";

import { Input } from "@/components/ui/input";
import { formatAmount, parseBRLToCents } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import { cn } from "@/lib/utils";

type MoneyInputProps = Omit<ComponentProps<"input">, "value" | "defaultValue" | "onChange" | "type" | "name"> & {
  /** Form field name; the form receives integer cents (or an empty string) under it. */
  name?: string;
  /** Controlled value in cents; `null` for empty. */
  valueCents?: number | null;
  defaultValueCents?: number | null;
  onValueChange?: (cents: number | null) => void;
};

// Typing works like a till: digits fill in from the right, so "1", "12", "123" show 0,01, 0,12,
// 1,23. The value is integer cents at every keystroke, and there is never a separator to get wrong.
// Zero reads as empty, so backspacing clears the field instead of sticking at 0,00.
function centsFromTyping(text: string): number | null | undefined {
  const cents = Number(text.replace(/\D/g, "") || "0");
  if (!Number.isSafeInteger(cents)) return undefined;
  return cents === 0 ? null : cents;
}

export function MoneyInput({
  name,
  valueCents,
  defaultValueCents = null,
  onValueChange,
  className,
  ...props
}: MoneyInputProps) {
  const locale = resolveLocale(useLocale());
  const [uncontrolledCents, setUncontrolledCents] = useState<number | null>(defaultValueCents);
  const isControlled = valueCents !== undefined;
  const cents = isControlled ? valueCents : uncontrolledCents;

  function update(next: number | null) {
    if (!isControlled) setUncontrolledCents(next);
    onValueChange?.(next);
  }

  // A pasted amount ("1.234,56", "R$ 10") is read as written, not digit by digit.
  function handlePaste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = parseBRLToCents(event.clipboardData.getData("text"), locale);
    if (pasted === null) return;
    event.preventDefault();
    update(pasted);
  }

  return (
    <div className={cn("relative", className)}>
      <span
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-muted-foreground"
      >
        R$
      </span>
      <Input
        {...props}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        className="pl-9 text-right tabular-nums"
        value={cents === null ? "" : formatAmount(cents, locale)}
        onChange={(event) => {
          const next = centsFromTyping(event.target.value);
          if (next !== undefined) update(next);
        }}
        onPaste={handlePaste}
      />
      {name ? <input type="hidden" name={name} value={cents ?? ""} /> : null}
    </div>
  );
}
