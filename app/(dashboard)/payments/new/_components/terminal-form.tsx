"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";

import { MoneyInput } from "@/components/money-input";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { useIdempotentSubmit } from "@/lib/actions/use-idempotent-submit";
import { merchantAdviceOf } from "@/lib/card-payments/advice";
import { type TTerminalPaymentInput, ZTerminalPaymentInput } from "@/lib/card-payments/schemas";
import { previewInstallments, takesInstallmentCount } from "@/lib/card-payments/terminal-plan";
import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";

import { chargeCardAction } from "../actions";
import { type TCardMode, TerminalCardFieldset, type TSavedCardOption } from "./terminal-card-fieldset";
import { TerminalPlanFieldset } from "./terminal-plan-fieldset";
import { useReloadOnRestore } from "./use-reload-on-restore";

type TerminalFormProps = {
  defaultOrderId: string;
  savedCards: TSavedCardOption[];
  initialToken: string | null;
  canSaveCards: boolean;
};

/**
 * The virtual terminal's form. The card number and security code stay in uncontrolled inputs (not React state,
 * the URL or storage) and reach the server only inside the action's request; the server never sends them back,
 * so after an error the fields keep what was typed and nothing else repeats it.
 */
export function TerminalForm({ defaultOrderId, savedCards, initialToken, canSaveCards }: TerminalFormProps) {
  const t = useTranslations("cardPayments.terminal");
  const tRoot = useTranslations();
  const locale = resolveLocale(useLocale());
  const router = useRouter();
  const { fieldText, formText, messageText } = useActionErrorText("cardPayments.terminal");
  const { idempotencyKey, fieldErrors, formError, isPending, submit } = useIdempotentSubmit({
    schema: ZTerminalPaymentInput,
    action: chargeCardAction,
    onSuccess: (result) => {
      if (result.isApproved) toast.success(t("toast.approved"));
      else {
        const advice = merchantAdviceOf(result.merchantAdviceCode);
        const adviceKey = advice ? `cardPayments.advice.${advice.kind}.title` : null;
        toast.error(t("toast.refused"), {
          description: adviceKey && tRoot.has(adviceKey) ? tRoot(adviceKey) : undefined,
        });
      }
      router.push(`/payments/${encodeURIComponent(result.paymentId)}`);
    },
  });
  const [amountCents, setAmountCents] = useState<number | null>(null);
  const [installmentType, setInstallmentType] = useState<string>("3");
  const [installmentCount, setInstallmentCount] = useState(2);
  const [cardMode, setCardMode] = useState<TCardMode>(initialToken ? "saved" : "typed");
  const [token, setToken] = useState(initialToken ?? "");
  const [saveCard, setSaveCard] = useState(false);

  useReloadOnRestore();

  const hasCount = takesInstallmentCount(installmentType);
  const preview = previewInstallments(amountCents, installmentType, installmentCount);
  const money = (cents: number) => formatBRL(cents, locale);

  function readInput(form: FormData): TTerminalPaymentInput {
    const text = (name: string) => String(form.get(name) ?? "").trim();
    return {
      idempotencyKey: text("idempotencyKey"),
      amountCents: amountCents ?? Number.NaN,
      orderId: text("orderId"),
      installmentType: installmentType as TTerminalPaymentInput["installmentType"],
      installmentCount: hasCount ? installmentCount : 1,
      card:
        cardMode === "typed"
          ? {
              kind: "typed",
              number: text("cardNumber"),
              expiry: text("expiry"),
              securityCode: text("securityCode"),
              saveCard: canSaveCards && saveCard,
            }
          : { kind: "saved", token: token.trim() },
    };
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    submit(readInput(new FormData(event.currentTarget)));
  }

  const errorFor = (field: string) => fieldText(fieldErrors[field]);
  // The terminal's own refusals lead (the retry advice names its time, lib/card-payments/retry-advice.ts); a failure of
  // fields alone shows under the fields; anything else gets its own or its code's text.
  const topMessage =
    formError &&
    (formError.messageKey.startsWith("cardPayments.terminal.errors.")
      ? messageText(formError)
      : formError.fieldErrors
        ? null
        : formText(formError));
  const submitLabel = preview
    ? t("submitSummary", { amount: money(amountCents ?? 0), count: preview.count })
    : t("submit");

  return (
    <form onSubmit={handleSubmit} noValidate className="grid max-w-2xl gap-6" aria-busy={isPending}>
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <FormError>{topMessage}</FormError>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("amount")} required error={errorFor("amountCents")}>
          <MoneyInput valueCents={amountCents} onValueChange={setAmountCents} placeholder="0,00" autoFocus />
        </Field>
        <Field label={t("orderId")} required description={t("orderIdHint")} error={errorFor("orderId")}>
          <Input name="orderId" defaultValue={defaultOrderId} autoComplete="off" maxLength={64} spellCheck={false} />
        </Field>
      </div>

      <TerminalPlanFieldset
        installmentType={installmentType}
        onInstallmentTypeChange={setInstallmentType}
        installmentCount={installmentCount}
        onInstallmentCountChange={setInstallmentCount}
        hasCount={hasCount}
        preview={preview}
        errorFor={errorFor}
        money={money}
      />

      <TerminalCardFieldset
        savedCards={savedCards}
        canSaveCards={canSaveCards}
        cardMode={cardMode}
        onCardModeChange={setCardMode}
        token={token}
        onTokenChange={setToken}
        saveCard={saveCard}
        onSaveCardChange={setSaveCard}
        errorFor={errorFor}
      />

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={isPending}>
          {isPending ? <Spinner /> : null}
          {isPending ? t("submitting") : submitLabel}
        </Button>
        <p className="text-xs text-muted-foreground">{t("submitHint")}</p>
      </div>
    </form>
  );
}
