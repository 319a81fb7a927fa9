"use client";

import { useLocale, useTranslations } from "next-intl";
import type { FormEvent } from "react";

import { FilterSelect } from "@/components/data-table/filter-select";
import { ListFilterForm } from "@/components/data-table/list-filter-form";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { cardPaymentListStatuses, cardPaymentTypes } from "@/lib/card-payments/schemas";
import { formatAmount } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import type { TPeriod } from "@/lib/list/period";
import { BANDEIRA_CARTAO_BY_BRAND, CARD_BRAND_NAMES, type TCardBrand } from "@/lib/shared/card";

import { cardPaymentSearchParams } from "../(list)/search-params";

const brandOptions = (Object.entries(BANDEIRA_CARTAO_BY_BRAND) as [TCardBrand, string][]).map(([brand, code]) => ({
  value: code,
  label: CARD_BRAND_NAMES[brand],
}));

// "1.234,56" or "1234.56": the same reading as the filter schema (lib/list/schemas.ts, ZOptionalAmountReais).
const amountPattern = "[0-9]{1,3}([.,]?[0-9]{3})*([.,][0-9]{1,2})?";

/** The browser's own check, in the person's language, before a bad value could silently drop the filter. */
function explainInvalid(message: string) {
  return {
    onInvalid: (event: FormEvent<HTMLInputElement>) => event.currentTarget.setCustomValidity(message),
    onInput: (event: FormEvent<HTMLInputElement>) => event.currentTarget.setCustomValidity(""),
  };
}

/** The card payment list's filters; `period` is the one shown (the last 7 days when the URL has none). */
export function CardPaymentsFilters({ period }: { period: TPeriod }) {
  const t = useTranslations("cardPayments");
  const locale = resolveLocale(useLocale());
  const amountText = (cents: number | null) => (cents === null ? "" : formatAmount(cents, locale));

  return (
    <ListFilterForm parsers={cardPaymentSearchParams} action="/payments" label={t("list.filters.label")} columns={3}>
      {(values) => (
        <>
          <PeriodFilterFields
            fromLabel={t("list.filters.from")}
            toLabel={t("list.filters.to")}
            from={period.from}
            to={period.to}
            isFromBoundedByTo
          />
          <FilterSelect
            id="card-payment-status"
            name="status"
            label={t("list.filters.status")}
            anyLabel={t("list.filters.anyStatus")}
            defaultValue={values.status ?? ""}
            options={cardPaymentListStatuses.map((status) => ({ value: status, label: t(`statusKind.${status}`) }))}
          />
          <FilterSelect
            id="card-payment-brand"
            name="brand"
            label={t("list.filters.brand")}
            anyLabel={t("list.filters.anyBrand")}
            defaultValue={values.brand ?? ""}
            options={brandOptions}
          />
          <FilterSelect
            id="card-payment-type"
            name="type"
            label={t("list.filters.type")}
            anyLabel={t("list.filters.anyType")}
            defaultValue={values.type ?? ""}
            options={cardPaymentTypes.map((type) => ({ value: type, label: t(`paymentType.${type}`) }))}
          />
          <Field label={t("list.filters.orderId")}>
            <Input name="orderId" type="search" autoComplete="off" defaultValue={values.orderId ?? ""} />
          </Field>
          <Field label={t("list.filters.minAmount")}>
            <Input
              name="minAmount"
              inputMode="decimal"
              autoComplete="off"
              pattern={amountPattern}
              defaultValue={amountText(values.minAmount)}
              {...explainInvalid(t("errors.amountInvalid"))}
            />
          </Field>
          <Field label={t("list.filters.maxAmount")}>
            <Input
              name="maxAmount"
              inputMode="decimal"
              autoComplete="off"
              pattern={amountPattern}
              defaultValue={amountText(values.maxAmount)}
              {...explainInvalid(t("errors.amountInvalid"))}
            />
          </Field>
          <Field label={t("list.filters.lastFour")}>
            <Input
              name="lastFour"
              inputMode="numeric"
              autoComplete="off"
              pattern="[0-9]{4}"
              maxLength={4}
              defaultValue={values.lastFour ?? ""}
              {...explainInvalid(t("errors.lastFourInvalid"))}
            />
          </Field>
        </>
      )}
    </ListFilterForm>
  );
}
