"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";

import { MoneyInput } from "@/components/money-input";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Field, FieldError, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { useIdempotentSubmit } from "@/lib/actions/use-idempotent-submit";
import { type TCreatePaymentLinkInput, ZCreatePaymentLinkInput } from "@/lib/links/schemas";
import { paymentLinkLimits, paymentLinkMethodCodes } from "@/lib/links/types";
import { formatCpfOrCnpj, isValidCpfOrCnpj } from "@/lib/shared/cpf-cnpj";

import { createPaymentLinkAction } from "../../actions";

type MethodCode = (typeof paymentLinkMethodCodes)[keyof typeof paymentLinkMethodCodes];

const installmentChoices = Array.from({ length: paymentLinkLimits.maxInstallments }, (_, index) => index + 1);

export function NewPaymentLinkForm() {
  const t = useTranslations("links");
  const { fieldText, formText } = useActionErrorText("links");
  const router = useRouter();
  const { idempotencyKey, fieldErrors, formError, isPending, submit } = useIdempotentSubmit({
    schema: ZCreatePaymentLinkInput,
    action: createPaymentLinkAction,
    onSuccess: (link) => router.push(`/links/${link.linkPaymentUuid}`),
  });
  const [amountCents, setAmountCents] = useState<number | null>(null);
  const [isForeignPayer, setIsForeignPayer] = useState(false);
  const [methods, setMethods] = useState<MethodCode[]>([
    paymentLinkMethodCodes.CREDIT_CARD,
    paymentLinkMethodCodes.PIX,
  ]);

  function toggleMethod(code: MethodCode, isChecked: boolean) {
    setMethods((current) =>
      isChecked ? [...new Set([...current, code])].sort() : current.filter((item) => item !== code),
    );
  }

  function readInput(form: FormData): TCreatePaymentLinkInput {
    const text = (name: string) => String(form.get(name) ?? "").trim();
    return {
      idempotencyKey,
      payerName: text("payerName"),
      isForeignPayer,
      payerDocument: text("payerDocument"),
      amountCents: amountCents ?? 0,
      installments: Number(text("installments")),
      acceptedMethodCodes: methods,
      expirationDays: Number(text("expirationDays") || NaN),
      description: text("description") || undefined,
      userReference: text("userReference") || undefined,
    };
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    submit(readInput(new FormData(event.currentTarget)));
  }

  const errorFor = (field: string) => fieldText(fieldErrors[field]);
  const methodsError = errorFor("acceptedMethodCodes");

  return (
    <form onSubmit={handleSubmit} noValidate className="grid max-w-2xl gap-6" aria-busy={isPending}>
      <FormError>{formError && !formError.fieldErrors ? formText(formError) : null}</FormError>

      <fieldset className="grid gap-4 rounded-lg border p-4 sm:grid-cols-2">
        <legend className="px-1 text-sm font-medium">{t("new.payer")}</legend>
        <Field label={t("new.payerName")} required error={errorFor("payerName")} className="sm:col-span-2">
          <Input name="payerName" autoComplete="off" maxLength={200} autoFocus />
        </Field>
        <div className="flex items-center gap-2 sm:col-span-2">
          <Checkbox
            id="is-foreign-payer"
            checked={isForeignPayer}
            onCheckedChange={(value) => setIsForeignPayer(value === true)}
          />
          <Label htmlFor="is-foreign-payer">{t("new.isForeignPayer")}</Label>
        </div>
        <Field
          label={isForeignPayer ? t("new.foreignDocument") : t("new.payerDocument")}
          required
          description={isForeignPayer ? t("new.foreignDocumentHint") : t("new.payerDocumentHint")}
          error={errorFor("payerDocument")}
          className="sm:col-span-2"
        >
          <Input
            name="payerDocument"
            inputMode={isForeignPayer ? "text" : "numeric"}
            autoComplete="off"
            maxLength={40}
            onBlur={(event) => {
              const value = event.currentTarget.value;
              if (!isForeignPayer && isValidCpfOrCnpj(value)) event.currentTarget.value = formatCpfOrCnpj(value);
            }}
          />
        </Field>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("new.amount")} required description={t("new.amountHint")} error={errorFor("amountCents")}>
          <MoneyInput valueCents={amountCents} onValueChange={setAmountCents} placeholder="0,00" />
        </Field>
        <Field
          label={t("new.installments")}
          required
          description={t("new.installmentsHint")}
          error={errorFor("installments")}
        >
          <NativeSelect name="installments" defaultValue="1">
            {installmentChoices.map((count) => (
              <option key={count} value={count}>
                {t("new.installmentsChoice", { count })}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>

      <fieldset className="grid gap-3" aria-describedby={methodsError ? "accepted-methods-error" : undefined}>
        <legend className="mb-2 text-sm font-medium">
          {t("new.methods")}
          <span aria-hidden="true" className="text-destructive">
            *
          </span>
        </legend>
        <div className="flex flex-wrap gap-6">
          {Object.values(paymentLinkMethodCodes).map((code) => (
            <div key={code} className="flex items-center gap-2">
              <Checkbox
                id={`method-${code}`}
                checked={methods.includes(code)}
                aria-invalid={methodsError ? true : undefined}
                onCheckedChange={(value) => toggleMethod(code, value === true)}
              />
              <Label htmlFor={`method-${code}`}>{t(`methods.${code}`)}</Label>
            </div>
          ))}
        </div>
        {methodsError ? <FieldError id="accepted-methods-error">{methodsError}</FieldError> : null}
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t("new.expirationDays")}
          required
          description={t("new.expirationDaysHint", { min: paymentLinkLimits.minDays, max: paymentLinkLimits.maxDays })}
          error={errorFor("expirationDays")}
        >
          <Input
            name="expirationDays"
            type="number"
            inputMode="numeric"
            min={paymentLinkLimits.minDays}
            max={paymentLinkLimits.maxDays}
            step={1}
            defaultValue={paymentLinkLimits.defaultDays}
          />
        </Field>
        <Field
          label={t("new.userReference")}
          description={t("new.userReferenceHint")}
          error={errorFor("userReference")}
        >
          <Input name="userReference" autoComplete="off" maxLength={100} />
        </Field>
        <Field
          label={t("new.descriptionField")}
          description={t("new.descriptionHint")}
          error={errorFor("description")}
          className="sm:col-span-2"
        >
          <Textarea name="description" maxLength={500} rows={2} />
        </Field>
      </div>

      <div className="flex gap-2">
        <Button type="submit" disabled={isPending}>
          {isPending ? <Spinner /> : null}
          {isPending ? t("new.submitting") : t("new.submit")}
        </Button>
      </div>
    </form>
  );
}
