"use client";

import { useTranslations } from "next-intl";
import { FilterSelect } from "@/components/data-table/filter-select";
import { ListFilterForm } from "@/components/data-table/list-filter-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { brandCodes, cardTokenStatuses } from "@/lib/saved-cards/schemas";
import { brandFromBandeiraCartao } from "@/lib/shared/card";

import { cardTokenSearchParams } from "../search-params";

export function CardTokenFilters() {
  const t = useTranslations("cards.list.filters");
  const tCards = useTranslations("cards");

  return (
    <ListFilterForm parsers={cardTokenSearchParams} action="/cards" label={t("label")} columns={3}>
      {(values) => (
        <>
          <FilterSelect
            id="card-status"
            name="status"
            label={t("status")}
            anyLabel={t("anyStatus")}
            defaultValue={values.status ?? ""}
            options={cardTokenStatuses.map((status) => ({ value: status, label: tCards(`status.${status}`) }))}
          />
          <FilterSelect
            id="card-brand"
            name="brand"
            label={t("brand")}
            anyLabel={t("anyBrand")}
            defaultValue={values.brand ?? ""}
            options={brandCodes.map((code) => {
              const brand = brandFromBandeiraCartao(code);
              return { value: code, label: brand ? tCards(`brands.${brand}`) : code };
            })}
          />
          <Field label={t("lastFour")}>
            <Input
              name="lastFour"
              inputMode="numeric"
              autoComplete="off"
              maxLength={4}
              pattern="\d{4}"
              defaultValue={values.lastFour ?? ""}
            />
          </Field>
          <Field label={t("customerId")}>
            <Input name="customerId" autoComplete="off" defaultValue={values.customerId ?? ""} />
          </Field>
          <Field label={t("token")}>
            <Input name="token" type="search" autoComplete="off" defaultValue={values.token ?? ""} />
          </Field>
        </>
      )}
    </ListFilterForm>
  );
}
