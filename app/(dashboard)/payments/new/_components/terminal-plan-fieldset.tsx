import { useTranslations } from "next-intl";

import { Field, FormError } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/native-select";
import {
  maxTerminalInstallments,
  type previewInstallments,
  terminalInstallmentTypes,
  terminalPlanKeys,
} from "@/lib/card-payments/terminal-plan";

const installmentCounts = Array.from({ length: maxTerminalInstallments }, (_, index) => index + 1);

type TerminalPlanFieldsetProps = {
  installmentType: string;
  onInstallmentTypeChange: (type: string) => void;
  installmentCount: number;
  onInstallmentCountChange: (count: number) => void;
  hasCount: boolean;
  preview: ReturnType<typeof previewInstallments>;
  errorFor: (field: string) => string | undefined;
  money: (cents: number) => string;
};

/** The installment plan: one or more installments, their count, and what each installment will be. */
export function TerminalPlanFieldset({
  installmentType,
  onInstallmentTypeChange,
  installmentCount,
  onInstallmentCountChange,
  hasCount,
  preview,
  errorFor,
  money,
}: TerminalPlanFieldsetProps) {
  const t = useTranslations("cardPayments.terminal");
  return (
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
              onChange={() => onInstallmentTypeChange(type)}
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
            onChange={(event) => onInstallmentCountChange(Number(event.target.value))}
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
  );
}
