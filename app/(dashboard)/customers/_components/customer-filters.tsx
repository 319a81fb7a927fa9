"use client";

import { useTranslations } from "next-intl";
import { ListFilterForm } from "@/components/data-table/list-filter-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

import { customerSearchParams } from "../(list)/search-params";

/** One box: a CPF/CNPJ (with or without punctuation) or the start of a name. */
export function CustomerFilters() {
  const t = useTranslations("customers");

  return (
    <ListFilterForm parsers={customerSearchParams} action="/customers" label={t("filters.label")} columns={3}>
      {(values) => (
        <Field label={t("filters.q")}>
          <Input name="q" type="search" autoComplete="off" maxLength={100} defaultValue={values.q ?? ""} />
        </Field>
      )}
    </ListFilterForm>
  );
}
