"use client";

import { useTranslations } from "next-intl";

import { FilterForm } from "@/components/data-table/filter-form";
import { FilterFormActions } from "@/components/data-table/filter-form-actions";
import { FilterSelect } from "@/components/data-table/filter-select";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { useFilterForm } from "@/components/data-table/use-filter-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { pixRefundStatusCodes } from "@/lib/pix/types";

import { pixRefundSearchParams } from "../search-params";

/** The refund list's filters; no dates means every refund, as upstream's list. */
export function PixRefundFilters() {
  const t = useTranslations("refunds");
  const { values, onSubmit, isPending, hasFilters, formKey } = useFilterForm(pixRefundSearchParams);

  return (
    <FilterForm
      key={formKey}
      action="/refunds"
      label={t("filters.label")}
      className="lg:grid-cols-4"
      onSubmit={onSubmit}
      isPending={isPending}
    >
      <PeriodFilterFields
        fromLabel={t("filters.from")}
        toLabel={t("filters.to")}
        from={values.from ?? undefined}
        to={values.to ?? undefined}
      />
      <Field label={t("filters.txid")}>
        <Input name="txid" type="search" autoComplete="off" defaultValue={values.txid ?? ""} />
      </Field>
      <FilterSelect
        id="refund-status"
        name="statusCode"
        label={t("filters.status")}
        anyLabel={t("filters.anyStatus")}
        defaultValue={values.statusCode ?? ""}
        options={Object.values(pixRefundStatusCodes).map((code) => ({ value: code, label: t(`status.${code}`) }))}
      />
      <FilterFormActions
        applyLabel={t("filters.apply")}
        clearLabel={t("filters.clear")}
        clearHref="/refunds"
        hasFilters={hasFilters}
        sort={values.sort}
        order={values.order}
        isPending={isPending}
        className="sm:col-span-2 lg:col-span-4"
      />
    </FilterForm>
  );
}
