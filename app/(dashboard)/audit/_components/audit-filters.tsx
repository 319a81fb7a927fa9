"use client";

import { useTranslations } from "next-intl";
import { FilterSelect } from "@/components/data-table/filter-select";
import { ListFilterForm } from "@/components/data-table/list-filter-form";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { auditActions } from "@/lib/audit/audit-actions";

import { auditSearchParams } from "../search-params";

/** The audit log's filters. */
export function AuditFilters() {
  const t = useTranslations("audit");

  return (
    <ListFilterForm parsers={auditSearchParams} action="/audit" label={t("filters.label")} columns={3}>
      {(values) => (
        <>
          <FilterSelect
            id="audit-action"
            name="action"
            label={t("filters.action")}
            anyLabel={t("filters.anyAction")}
            defaultValue={values.action ?? ""}
            options={auditActions.map((action) => ({ value: action, label: t(`actions.${action}`) }))}
          />
          <Field label={t("filters.actor")}>
            <Input name="actor" type="search" defaultValue={values.actor ?? ""} />
          </Field>
          <Field label={t("filters.resourceType")}>
            <Input name="resourceType" defaultValue={values.resourceType ?? ""} />
          </Field>
          <Field label={t("filters.resourceId")}>
            <Input name="resourceId" defaultValue={values.resourceId ?? ""} />
          </Field>
          <PeriodFilterFields
            fromLabel={t("filters.from")}
            toLabel={t("filters.to")}
            from={values.from ?? undefined}
            to={values.to ?? undefined}
          />
        </>
      )}
    </ListFilterForm>
  );
}
