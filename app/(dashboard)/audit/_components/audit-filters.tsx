"use client";

import { useTranslations } from "next-intl";

import { FilterForm } from "@/components/data-table/filter-form";
import { FilterFormActions } from "@/components/data-table/filter-form-actions";
import { FilterSelect } from "@/components/data-table/filter-select";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { useFilterForm } from "@/components/data-table/use-filter-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { auditActions } from "@/lib/audit/audit-actions";

import { auditSearchParams } from "../search-params";

/** The audit log's filters. */
export function AuditFilters() {
  const t = useTranslations("audit");
  const { values, onSubmit, isPending, hasFilters, formKey } = useFilterForm(auditSearchParams);

  return (
    <FilterForm
      key={formKey}
      action="/audit"
      label={t("filters.label")}
      className="lg:grid-cols-3"
      onSubmit={onSubmit}
      isPending={isPending}
    >
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
      <FilterFormActions
        applyLabel={t("filters.apply")}
        clearLabel={t("filters.clear")}
        clearHref="/audit"
        hasFilters={hasFilters}
        isPending={isPending}
        className="sm:col-span-2 lg:col-span-3"
      />
    </FilterForm>
  );
}
