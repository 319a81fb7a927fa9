"use client";

import { useLocale, useTranslations } from "next-intl";
import { FilterSelect } from "@/components/data-table/filter-select";
import { ListFilterForm } from "@/components/data-table/list-filter-form";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { formatAmount } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import { posApprovedFilters, posMatchStatuses } from "@/lib/pos/admin-schemas";

import { posSalesSearchParams } from "../search-params";

/** Sales filters; amounts are typed in reais. */
export function PosSalesFilters() {
  const t = useTranslations("pos.sales");
  const locale = resolveLocale(useLocale());
  return (
    <ListFilterForm parsers={posSalesSearchParams} action="/pos/sales" label={t("filters.label")} columns={4}>
      {(values) => (
        <>
          <PeriodFilterFields
            fromLabel={t("filters.from")}
            toLabel={t("filters.to")}
            from={values.from ?? undefined}
            to={values.to ?? undefined}
          />
          <Field label={t("filters.sellerId")}>
            <Input name="sellerId" defaultValue={values.sellerId ?? ""} />
          </Field>
          <Field label={t("filters.posId")}>
            <Input name="posId" defaultValue={values.posId ?? ""} />
          </Field>
          <FilterSelect
            id="pos-sales-approved"
            name="approved"
            label={t("filters.approved")}
            anyLabel={t("filters.any")}
            defaultValue={values.approved ?? ""}
            options={posApprovedFilters.map((value) => ({ value, label: t(`approved.${value}`) }))}
          />
          <FilterSelect
            id="pos-sales-match"
            name="match"
            label={t("filters.match")}
            anyLabel={t("filters.any")}
            defaultValue={values.match ?? ""}
            options={posMatchStatuses.map((value) => ({ value, label: t(`match.${value}`) }))}
          />
          <Field label={t("filters.brand")}>
            <Input name="brand" defaultValue={values.brand ?? ""} />
          </Field>
          <Field label={t("filters.network")}>
            <Input name="network" defaultValue={values.network ?? ""} />
          </Field>
          {(["minAmount", "maxAmount"] as const).map((name) => (
            <Field key={name} label={t(`filters.${name}`)}>
              <Input
                name={name}
                inputMode="decimal"
                autoComplete="off"
                placeholder="0,00"
                defaultValue={values[name] === null ? "" : formatAmount(values[name], locale)}
              />
            </Field>
          ))}
        </>
      )}
    </ListFilterForm>
  );
}
