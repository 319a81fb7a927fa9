"use client";

import { useTranslations } from "next-intl";
import { FilterSelect } from "@/components/data-table/filter-select";
import { ListFilterForm } from "@/components/data-table/list-filter-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { posStatusFilters } from "@/lib/pos/admin-schemas";

import { posSellerSearchParams } from "../search-params";

export function PosSellerFilters() {
  const t = useTranslations("pos.sellers");
  return (
    <ListFilterForm parsers={posSellerSearchParams} action="/pos/sellers" label={t("filters.label")} columns={3}>
      {(values) => (
        <>
          <Field label={t("filters.q")}>
            <Input name="q" type="search" defaultValue={values.q ?? ""} />
          </Field>
          <FilterSelect
            id="pos-seller-status"
            name="status"
            label={t("filters.status")}
            anyLabel={t("filters.anyStatus")}
            defaultValue={values.status ?? ""}
            options={posStatusFilters.map((status) => ({ value: status, label: t(`status.${status}`) }))}
          />
        </>
      )}
    </ListFilterForm>
  );
}
