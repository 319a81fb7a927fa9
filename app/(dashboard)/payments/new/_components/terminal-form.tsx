"use client";

import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { type FormEvent, useEffect, useState } from "react";
import { toast } from "sonner";

import { CardExpiryInput, CardNumberInput, CardSecurityCodeInput } from "@/components/card-fields/card-fields";
import { MoneyInput } from "@/components/money-input";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { useIdempotentSubmit } from "@/lib/actions/use-idempotent-submit";
import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import { merchantAdviceOf } from "@/lib/payments/advice";
import { type TTerminalPaymentInput, ZTerminalPaymentInput } from "@/lib/payments/schemas";
import {
  maxTerminalInstallments,
  previewInstallments,
  takesInstallmentCount,
  terminalInstallmentTypes,
  terminalPlanKeys,
} from "@/lib/payments/terminal-plan";
import { brandFromBandeiraCartao, CARD_BRAND_NAMES, type TCardBrand } from "@/lib/shared/card";

import { chargeCardAction } from "../actions";

/** A saved card the picker offers: never more than the token, brand, last four and expiry. */
export type TSavedCardOption = { token: string; brandCode: string; lastFour: string; expiry: string; status: string };

type TerminalFormProps = {
  defaultOrderId: string;
  savedCards: TSavedCardOption[];
  initialToken: string | null;
  canSaveCards: boolean;
};

const installmentCounts = Array.from({ length: maxTerminalInstallments }, (_, index) => index + 1);

function brandName(code: string): string {
  const brand = brandFromBandeiraCartao(code);
  return brand ? CARD_BRAND_NAMES[brand] : code;
}

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
  const [cardMode, setCardMode] = useState<"typed" | "saved">(initialToken ? "saved" : "typed");
  const [brand, setBrand] = useState<TCardBrand | null>(null);
  const [token, setToken] = useState(initialToken ?? "");
  const [saveCard, setSaveCard] = useState(false);

  // Back/forward cache: a restored page would resend an old key with other data, and show a typed card again.
  useEffect(() => {
    const reloadOnRestore = (event: PageTransitionEvent) => {
      if (event.persisted) window.location.reload();
    };
    window.addEventListener("pageshow", reloadOnRestore);
    return () => window.removeEventListener("pageshow", reloadOnRestore);
  }, []);

  const hasCount = takesInstallmentCount(installmentType);
  const preview = previewInstallments(amountCents, installmentType, installmentCount);
  const savedCard = savedCards.find((card) => card.token === token.trim()) ?? null;
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
  // The terminal's own refusals lead (the retry advice names its time, lib/payments/retry-advice.ts); a failure of
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

      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-medium">{t("plan")}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {terminalInstallmentTypes.map((type) => (
            <label
              key={type}
              className="flex min-h-11 cursor-pointer items-start gap-3 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent"
            >
              <input
                type="radio"
                name="installmentType"
                value={type}
                checked={installmentType === type}
                onChange={() => setInstallmentType(type)}
                className="mt-0.5 size-4 accent-primary"
              />
              <span className="grid gap-0.5">
                <span className="font-medium">{t(`plans.${terminalPlanKeys[type]}.label`)}</span>
                <span className="text-xs text-muted-foreground">{t(`plans.${terminalPlanKeys[type]}.hint`)}</span>
              </span>
            </label>
          ))}
        </div>
        {errorFor("installmentType") ? <FormError>{errorFor("installmentType")}</FormError> : null}
        {hasCount ? (
          <Field label={t("installmentCount")} required error={errorFor("installmentCount")} className="max-w-xs">
            <NativeSelect
              name="installmentCount"
              value={installmentCount}
              onChange={(event) => setInstallmentCount(Number(event.target.value))}
            >
              {installmentCounts.map((count) => (
                <option key={count} value={count}>
                  {t("installmentChoice", { count })}
                </option>
              ))}
            </NativeSelect>
          </Field>
        ) : errorFor("installmentCount") ? (
          <FormError>{errorFor("installmentCount")}</FormError>
        ) : null}
        <div aria-live="polite" className="rounded-md bg-muted/50 px-3 py-2 text-sm">
          {preview ? (
            <>
              <p className="font-medium">
                {preview.count === 1
                  ? t("preview.single", { amount: money(preview.firstCents) })
                  : preview.firstCents === preview.otherCents
                    ? t("preview.even", { count: preview.count, amount: money(preview.otherCents) })
                    : t("preview.uneven", {
                        count: preview.count,
                        first: money(preview.firstCents),
                        other: money(preview.otherCents),
                      })}
              </p>
              {preview.count > 1 ? (
                <ol className="mt-1 grid grid-cols-2 gap-x-4 text-xs text-muted-foreground tabular-nums sm:grid-cols-4">
                  {preview.amountsCents.map((cents, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: installments are positional
                    <li key={index}>{t("preview.item", { number: index + 1, amount: money(cents) })}</li>
                  ))}
                </ol>
              ) : null}
            </>
          ) : (
            <p className="text-muted-foreground">{t("preview.empty")}</p>
          )}
        </div>
      </fieldset>

      <fieldset className="grid gap-4 rounded-lg border p-4">
        <legend className="px-1 text-sm font-medium">{t("card")}</legend>
        <div className="flex flex-wrap gap-4 text-sm" role="radiogroup" aria-label={t("cardSource")}>
          {/* Saved cards are charged by admins only (the server refuses STAFF too). */}
          {(canSaveCards ? (["typed", "saved"] as const) : (["typed"] as const)).map((mode) => (
            <label key={mode} className="flex cursor-pointer items-center gap-2">
              <input
                type="radio"
                name="cardMode"
                value={mode}
                checked={cardMode === mode}
                onChange={() => setCardMode(mode)}
                className="size-4 accent-primary"
              />
              {t(`cardModes.${mode}`)}
            </label>
          ))}
        </div>

        {cardMode === "typed" ? (
          <>
            <Field
              label={t("cardNumber")}
              required
              error={errorFor("card.number")}
              description={brand ? t("brandDetected", { brand: CARD_BRAND_NAMES[brand] }) : undefined}
            >
              <CardNumberInput name="cardNumber" onBrandChange={setBrand} />
            </Field>
            <div className="grid grid-cols-2 gap-4">
              <Field label={t("expiry")} required error={errorFor("card.expiry")}>
                <CardExpiryInput name="expiry" placeholder={t("expiryPlaceholder")} />
              </Field>
              <Field label={t("securityCode")} required error={errorFor("card.securityCode")}>
                <CardSecurityCodeInput name="securityCode" />
              </Field>
            </div>
            {canSaveCards ? (
              <div className="flex items-start gap-2">
                <Checkbox
                  id="saveCard"
                  checked={saveCard}
                  onCheckedChange={(checked) => setSaveCard(checked === true)}
                  className="mt-0.5"
                />
                <div className="grid gap-1">
                  <Label htmlFor="saveCard">{t("saveCard")}</Label>
                  <p className="text-xs text-muted-foreground">{t("saveCardHint")}</p>
                  {errorFor("card.saveCard") ? <FormError>{errorFor("card.saveCard")}</FormError> : null}
                </div>
              </div>
            ) : null}
          </>
        ) : (
          <Field
            label={t("token")}
            required
            error={errorFor("card.token")}
            description={
              savedCard
                ? t("savedCardDescription", {
                    brand: brandName(savedCard.brandCode),
                    lastFour: savedCard.lastFour,
                    expiry: savedCard.expiry,
                  })
                : token.trim()
                  ? t("tokenNotMirrored")
                  : savedCards.length > 0
                    ? t("tokenHint")
                    : t("noSavedCards")
            }
          >
            <Input
              name="token"
              list="terminal-saved-cards"
              value={token}
              onChange={(event) => setToken(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              maxLength={200}
              className="font-mono"
            />
          </Field>
        )}
        <datalist id="terminal-saved-cards">
          {savedCards.map((card) => (
            <option key={card.token} value={card.token}>
              {`${brandName(card.brandCode)} •••• ${card.lastFour} · ${card.expiry}`}
            </option>
          ))}
        </datalist>
      </fieldset>

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
