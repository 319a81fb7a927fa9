"use client";

import { useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";

import { MoneyInput } from "@/components/money-input";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import type { TActionError } from "@/lib/actions/define-action";
import { ZRequestPixRefundInput } from "@/lib/pix/schemas";
import { usePixErrorText } from "../../_components/use-pix-error-text";
import { requestPixRefundAction } from "../../actions";

type RefundFormProps = {
  txid: string;
  /** What is left to refund as this page last saw it; the server checks again under a lock. */
  remainingRefundableCents: number;
  onRefunded: () => void;
  onFailed: (error: TActionError) => void;
};

export function RefundForm({ txid, remainingRefundableCents, onRefunded, onFailed }: RefundFormProps) {
  const t = useTranslations("pix.refunds.form");
  const { fieldText } = usePixErrorText();
  const [amountCents, setAmountCents] = useState<number | null>(remainingRefundableCents);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [isPending, startTransition] = useTransition();
  // One key per refund: a double click or a retried action refunds once; a new key after success.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const description = String(new FormData(event.currentTarget).get("description") ?? "").trim();
    const input = { idempotencyKey, txid, amountCents: amountCents ?? 0, description: description || undefined };
    const checked = ZRequestPixRefundInput.safeParse(input);
    if (!checked.success) {
      setFieldErrors(Object.fromEntries(checked.error.issues.map((issue) => [issue.path.join("."), issue.message])));
      return;
    }
    if (input.amountCents > remainingRefundableCents) {
      setFieldErrors({ amountCents: "exceedsRemaining" });
      return;
    }
    setFieldErrors({});
    startTransition(async () => {
      const result = await requestPixRefundAction(input);
      if (result.ok) {
        setIdempotencyKey(crypto.randomUUID());
        onRefunded();
      }
      // Input mistakes stay at their field; a refusal (nothing left, charge not refundable) is the
      // panel's to show, since the refreshed charge may no longer offer this form.
      else if (result.error.code === "VALIDATION_FAILED" && result.error.fieldErrors)
        setFieldErrors(result.error.fieldErrors);
      else onFailed(result.error);
    });
  }

  return (
    <form
      onSubmit={handleSubmit}
      noValidate
      className="grid gap-4 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] sm:items-start"
      aria-busy={isPending}
    >
      <Field label={t("amount")} required error={fieldText(fieldErrors, "amountCents")}>
        <MoneyInput valueCents={amountCents} onValueChange={setAmountCents} />
      </Field>
      <Field label={t("description")} description={t("descriptionHint")} error={fieldText(fieldErrors, "description")}>
        <Textarea name="description" rows={1} maxLength={140} className="min-h-9" />
      </Field>
      <Button type="submit" disabled={isPending} className="sm:mt-6">
        {isPending ? <Spinner /> : null}
        {t("submit")}
      </Button>
    </form>
  );
}
