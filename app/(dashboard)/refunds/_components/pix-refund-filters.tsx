"use client";

import { useTranslations } from "next-intl";
import { FilterSelect } from "@/components/data-table/filter-select";
import { ListFilterForm } from "@/components/data-table/list-filter-form";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { pixRefundStatusCodes } from "@/lib/pix/types";

import { pixRefundSearchParams } from "../search-params";

/** The refund list's filters; no dates means every refund, as upstream's list. */
export function PixRefundFilters() {
  const t = useTranslations("refunds");

  return (
    <ListFilterForm parsers={pixRefundSearchParams} action="/refunds" label={t("filters.label")} columns={4}>
      {(values) => (
        <>
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
        </>
      )}
    </ListFilterForm>
  );
}
