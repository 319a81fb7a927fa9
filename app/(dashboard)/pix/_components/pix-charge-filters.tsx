"use client";

import { useTranslations } from "next-intl";
import { FilterSelect } from "@/components/data-table/filter-select";
import { ListFilterForm } from "@/components/data-table/list-filter-form";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { statusMessageKey } from "@/components/resource-status-badge";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { TPeriod } from "@/lib/list/period";
import { pixChargeStatuses } from "@/lib/pix/types";

import { pixChargeSearchParams } from "../(list)/search-params";

/** The charge list's filters; `period` is the one shown (the last 7 days when the URL has none). */
export function PixChargeFilters({ period }: { period: TPeriod }) {
  const t = useTranslations("pix.list.filters");
  const tStatus = useTranslations("pix.status");

  return (
    <ListFilterForm parsers={pixChargeSearchParams} action="/pix" label={t("label")} columns={3}>
      {(values) => (
        <>
          {/* Set by the overview's links: the period is the payment date, and only paid charges show. */}
          {values.date === "paid" && <input type="hidden" name="date" value="paid" />}
          <PeriodFilterFields
            fromLabel={values.date === "paid" ? t("paidFrom") : t("from")}
            toLabel={values.date === "paid" ? t("paidTo") : t("to")}
            from={period.from}
            to={period.to}
            isFromBoundedByTo
          />
          <FilterSelect
            id="pix-status"
            name="status"
            label={t("status")}
            anyLabel={t("anyStatus")}
            defaultValue={values.status ?? ""}
            options={pixChargeStatuses.map((status) => ({ value: status, label: tStatus(statusMessageKey(status)) }))}
          />
          <Field label={t("document")}>
            <Input name="document" inputMode="numeric" autoComplete="off" defaultValue={values.document ?? ""} />
          </Field>
          <Field label={t("reference")}>
            <Input name="userReference" autoComplete="off" defaultValue={values.userReference ?? ""} />
          </Field>
          <Field label={t("txid")}>
            <Input name="txid" type="search" autoComplete="off" defaultValue={values.txid ?? ""} />
          </Field>
        </>
      )}
    </ListFilterForm>
  );
}
