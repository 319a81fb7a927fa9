"use client";

import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState, useTransition } from "react";

import { MoneyInput } from "@/components/money-input";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import type { TActionError } from "@/lib/actions/define-action";
import { zodIssuesToFieldErrors } from "@/lib/actions/field-errors";
import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import { type TSubmitPixRefundInput, ZSubmitPixRefundInput } from "@/lib/pix/schemas";
import { usePixErrorText } from "../../_components/use-pix-error-text";
import { requestPixRefundAction } from "../../actions";
import type { TRefundStepUp } from "./refunds-panel";

type RefundFormProps = {
  txid: string;
  /** What is left to refund as this page last saw it; the server checks again under a lock. */
  remainingRefundableCents: number;
  /** Refunded + held for approval on this charge: the step-up threshold counts them with the new refund. */
  countedCents: number;
  stepUp: TRefundStepUp;
  /** `isPendingApproval`: held for a second admin rather than sent. */
  onRefunded: (isPendingApproval: boolean) => void;
  onFailed: (error: TActionError) => void;
};

export function RefundForm({
  txid,
  remainingRefundableCents,
  countedCents,
  stepUp,
  onRefunded,
  onFailed,
}: RefundFormProps) {
  const t = useTranslations("pix.refunds.form");
  const tCommon = useTranslations("common");
  const locale = resolveLocale(useLocale());
  const { fieldText } = usePixErrorText();
  // Empty on purpose: a refund cannot be undone, so the amount is always typed, never the whole remainder by default.
  const [amountCents, setAmountCents] = useState<number | null>(null);
  // The checked request waiting for the person's confirmation; nothing is sent before it.
  const [pendingInput, setPendingInput] = useState<TSubmitPixRefundInput | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [isPending, startTransition] = useTransition();
  // One key per refund: a double click or a retried action refunds once; a new key after success.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const isStepUp = stepUp.thresholdCents > 0 && countedCents + (amountCents ?? 0) > stepUp.thresholdCents;
  const threshold = formatBRL(stepUp.thresholdCents, locale);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isPending) return;
    const form = new FormData(event.currentTarget);
    const description = String(form.get("description") ?? "").trim();
    const code = isStepUp ? String(form.get("code") ?? "").trim() : "";
    const input = {
      idempotencyKey,
      txid,
      amountCents: amountCents ?? 0,
      description: description || undefined,
      code: code || undefined,
    };
    const checked = ZSubmitPixRefundInput.safeParse(input);
    if (!checked.success) {
      setFieldErrors(zodIssuesToFieldErrors(checked.error.issues));
      return;
    }
    if (input.amountCents > remainingRefundableCents) {
      setFieldErrors({ amountCents: "exceedsRemaining" });
      return;
    }
    setFieldErrors({});
    setPendingInput(input);
  }

  function confirm() {
    if (!pendingInput || isPending) return;
    const input = pendingInput;
    startTransition(async () => {
      const result = await requestPixRefundAction(input);
      setPendingInput(null);
      if (result.ok) {
        setIdempotencyKey(crypto.randomUUID());
        setAmountCents(null);
        onRefunded(result.data.status === "pending");
      }
      // Input mistakes stay at their field; a refusal (nothing left, charge not refundable) is the
      // panel's to show, since the refreshed charge may no longer offer this form.
      // A wrong code is an input mistake too (rate-limited like sign-in codes).
      else if (result.error.code === "VALIDATION_FAILED" && result.error.fieldErrors)
        setFieldErrors(result.error.fieldErrors);
      else onFailed(result.error);
    });
  }

  const confirmAmount = formatBRL(pendingInput?.amountCents ?? 0, locale);
  const leftAfter = formatBRL(Math.max(0, remainingRefundableCents - (pendingInput?.amountCents ?? 0)), locale);
  // Above the threshold without a code, the request waits for a second admin instead of going out now.
  const isHeldForApproval = isStepUp && !pendingInput?.code;

  return (
    <>
      <form
        onSubmit={handleSubmit}
        noValidate
        className="grid gap-4 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] sm:items-start"
        aria-busy={isPending}
      >
        <Field label={t("amount")} required error={fieldText(fieldErrors, "amountCents")}>
          <MoneyInput valueCents={amountCents} onValueChange={setAmountCents} />
        </Field>
        <Field
          label={t("description")}
          description={t("descriptionHint")}
          error={fieldText(fieldErrors, "description")}
        >
          <Textarea name="description" rows={1} maxLength={140} className="min-h-9" />
        </Field>
        <Button type="submit" disabled={isPending} className="sm:mt-6">
          {isPending ? <Spinner /> : null}
          {t("submit")}
        </Button>
        {isStepUp ? (
          <div className="grid gap-3 sm:col-span-3">
            <p role="status" className="rounded-md border bg-muted/50 px-3 py-2 text-sm">
              {stepUp.hasTwoFactor ? t("stepUp", { threshold }) : t("stepUpNoCode", { threshold })}
            </p>
            {stepUp.hasTwoFactor ? (
              <Field label={t("code")} description={t("codeHint")} error={fieldText(fieldErrors, "code")}>
                <Input
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={7}
                  className="max-w-40 font-mono"
                />
              </Field>
            ) : null}
          </div>
        ) : null}
      </form>
      <AlertDialog
        open={pendingInput !== null}
        onOpenChange={(open) => {
          if (!open && !isPending) setPendingInput(null);
        }}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>{t("confirmTitle", { amount: confirmAmount })}</AlertDialogTitle>
            <AlertDialogDescription>
              {isHeldForApproval
                ? t("confirmHeld", { amount: confirmAmount })
                : t("confirmDescription", { amount: confirmAmount, left: leftAfter })}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={isPending}>{tCommon("cancel")}</AlertDialogCancel>
            <AlertDialogAction
              variant="destructive"
              disabled={isPending}
              onClick={(event) => {
                // Stay open until the server answers.
                event.preventDefault();
                confirm();
              }}
            >
              {isPending ? <Spinner /> : null}
              {isHeldForApproval ? t("confirmHeldAction") : t("confirmAction", { amount: confirmAmount })}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
