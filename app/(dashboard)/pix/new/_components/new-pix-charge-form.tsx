"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { type FormEvent, useState } from "react";

import { MoneyInput } from "@/components/money-input";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/native-select";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { useIdempotentSubmit } from "@/lib/actions/use-idempotent-submit";
import { pixExpirationLimits, type TCreatePixChargeInput, ZCreatePixChargeInput } from "@/lib/pix/schemas";
import { formatCpfOrCnpj, isValidCpfOrCnpj } from "@/lib/shared/cpf-cnpj";
import { usePixErrorText } from "../../_components/use-pix-error-text";
import { createPixChargeAction } from "../../actions";

const expirationPresets = [
  { key: "15m", seconds: 15 * 60 },
  { key: "1h", seconds: 3600 },
  { key: "24h", seconds: 24 * 3600 },
  { key: "7d", seconds: 7 * 24 * 3600 },
] as const;
const customExpiration = "custom";

export function NewPixChargeForm() {
  const t = useTranslations("pix.new");
  const { fieldText, formText } = usePixErrorText();
  const router = useRouter();
  const { idempotencyKey, fieldErrors, formError, isPending, submit } = useIdempotentSubmit({
    schema: ZCreatePixChargeInput,
    action: createPixChargeAction,
    onSuccess: (charge) => router.push(`/pix/${charge.txid}`),
  });
  const [amountCents, setAmountCents] = useState<number | null>(null);
  const [expirationChoice, setExpirationChoice] = useState<string>(String(pixExpirationLimits.defaultSeconds));

  function readInput(form: FormData): TCreatePixChargeInput {
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const expirationSeconds =
      expirationChoice === customExpiration ? Number(text("customExpirationSeconds") || NaN) : Number(expirationChoice);
    const debtorName = text("debtorName");
    const debtorDocument = text("debtorDocument");
    return {
      idempotencyKey,
      amountCents: amountCents ?? 0,
      expirationSeconds,
      debtor: debtorName || debtorDocument ? { name: debtorName, document: debtorDocument } : undefined,
      description: text("description") || undefined,
      userReference: text("userReference") || undefined,
    };
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    submit(readInput(new FormData(event.currentTarget)));
  }

  const errorFor = (field: string) => fieldText(fieldErrors, field);

  return (
    <form onSubmit={handleSubmit} noValidate className="grid max-w-2xl gap-6" aria-busy={isPending}>
      <FormError>{formError && !formError.fieldErrors ? formText(formError) : null}</FormError>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("amount")} required description={t("amountHint")} error={errorFor("amountCents")}>
          <MoneyInput valueCents={amountCents} onValueChange={setAmountCents} placeholder="0,00" autoFocus />
        </Field>
        <div className="grid content-start gap-4">
          <Field
            label={t("expiration")}
            required
            error={expirationChoice === customExpiration ? undefined : errorFor("expirationSeconds")}
          >
            <NativeSelect
              name="expirationChoice"
              value={expirationChoice}
              onChange={(event) => setExpirationChoice(event.target.value)}
            >
              {expirationPresets.map((preset) => (
                <option key={preset.key} value={preset.seconds}>
                  {t(`expirationPresets.${preset.key}`)}
                </option>
              ))}
              <option value={customExpiration}>{t("expirationPresets.custom")}</option>
            </NativeSelect>
          </Field>
          {expirationChoice === customExpiration ? (
            <Field
              label={t("customExpiration")}
              required
              description={t("customExpirationHint", {
                min: pixExpirationLimits.minSeconds,
                max: pixExpirationLimits.maxSeconds,
              })}
              error={errorFor("expirationSeconds")}
            >
              <Input
                name="customExpirationSeconds"
                type="number"
                inputMode="numeric"
                min={pixExpirationLimits.minSeconds}
                max={pixExpirationLimits.maxSeconds}
                step={1}
                defaultValue={pixExpirationLimits.defaultSeconds}
              />
            </Field>
          ) : null}
        </div>
      </div>

      <fieldset className="grid gap-4 rounded-lg border p-4 sm:grid-cols-2">
        <legend className="px-1 text-sm font-medium">{t("debtor")}</legend>
        <p className="text-sm text-muted-foreground sm:col-span-2">{t("debtorHint")}</p>
        <Field label={t("debtorName")} error={errorFor("debtor.name")}>
          <Input name="debtorName" autoComplete="off" maxLength={100} />
        </Field>
        <Field label={t("debtorDocument")} description={t("debtorDocumentHint")} error={errorFor("debtor.document")}>
          <Input
            name="debtorDocument"
            inputMode="numeric"
            autoComplete="off"
            maxLength={18}
            onBlur={(event) => {
              const value = event.currentTarget.value;
              if (isValidCpfOrCnpj(value)) event.currentTarget.value = formatCpfOrCnpj(value);
            }}
          />
        </Field>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t("descriptionField")}
          description={t("descriptionHint")}
          error={errorFor("description")}
          className="sm:col-span-2"
        >
          <Textarea name="description" maxLength={140} rows={2} />
        </Field>
        <Field label={t("userReference")} description={t("userReferenceHint")} error={errorFor("userReference")}>
          <Input name="userReference" autoComplete="off" maxLength={100} />
        </Field>
      </div>

      <div className="flex gap-2">
        <Button type="submit" disabled={isPending}>
          {isPending ? <Spinner /> : null}
          {isPending ? t("submitting") : t("submit")}
        </Button>
      </div>
    </form>
  );
}
