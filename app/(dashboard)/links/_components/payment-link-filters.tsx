"use client";

import { useTranslations } from "next-intl";
import { FilterSelect } from "@/components/data-table/filter-select";
import { ListFilterForm } from "@/components/data-table/list-filter-form";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { paymentLinkMethodCodes, paymentLinkStatusFilters } from "@/lib/links/types";
import type { TPeriod } from "@/lib/list/period";

import { paymentLinkSearchParams } from "../(list)/search-params";

/** The link list's filters; `period` is the one shown (the last 30 days when the URL has none). */
export function PaymentLinkFilters({ period }: { period: TPeriod }) {
  const t = useTranslations("links");

  return (
    <ListFilterForm parsers={paymentLinkSearchParams} action="/links" label={t("list.filters.label")} columns={4}>
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
            id="links-status"
            name="status"
            label={t("list.filters.status")}
            anyLabel={t("list.filters.anyStatus")}
            defaultValue={values.status ?? ""}
            options={paymentLinkStatusFilters.map((status) => ({ value: status, label: t(`statusFilter.${status}`) }))}
          />
          <FilterSelect
            id="links-method"
            name="method"
            label={t("list.filters.method")}
            anyLabel={t("list.filters.anyMethod")}
            defaultValue={values.method ?? ""}
            options={Object.values(paymentLinkMethodCodes).map((code) => ({
              value: code,
              label: t(`methods.${code}`),
            }))}
          />
          <Field label={t("list.filters.document")}>
            <Input name="document" autoComplete="off" defaultValue={values.document ?? ""} />
          </Field>
          <Field label={t("list.filters.reference")}>
            <Input name="userReference" autoComplete="off" defaultValue={values.userReference ?? ""} />
          </Field>
          <Field label={t("list.filters.receipt")}>
            <Input name="receipt" autoComplete="off" defaultValue={values.receipt ?? ""} />
          </Field>
        </>
      )}
    </ListFilterForm>
  );
}
