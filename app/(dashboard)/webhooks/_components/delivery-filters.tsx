"use client";

import { useTranslations } from "next-intl";

import { FilterForm } from "@/components/data-table/filter-form";
import { FilterFormActions } from "@/components/data-table/filter-form-actions";
import { FilterSelect } from "@/components/data-table/filter-select";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { useFilterForm } from "@/components/data-table/use-filter-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { webhookDeliveryOutcomes, webhookEventKey } from "@/lib/webhooks/schemas";

import { deliverySearchParams } from "../deliveries/(list)/search-params";

/** The delivery history's filters; `events` are the registry's event names (read on the server). */
export function DeliveryFilters({ events }: { events: readonly string[] }) {
  const t = useTranslations("webhooks");
  const { values, onSubmit, isPending, hasFilters, formKey } = useFilterForm(deliverySearchParams);

  return (
    <FilterForm
      key={formKey}
      action="/webhooks/deliveries"
      label={t("deliveries.filters.label")}
      className="lg:grid-cols-4"
      onSubmit={onSubmit}
      isPending={isPending}
    >
      <FilterSelect
        id="delivery-event"
        name="event"
        label={t("deliveries.filters.event")}
        anyLabel={t("deliveries.filters.anyEvent")}
        defaultValue={values.event ?? ""}
        options={events.map((event) => ({ value: event, label: t(`events.${webhookEventKey(event)}`) }))}
      />
      <FilterSelect
        id="delivery-outcome"
        name="outcome"
        label={t("deliveries.filters.outcome")}
        anyLabel={t("deliveries.filters.anyOutcome")}
        defaultValue={values.outcome ?? ""}
        options={webhookDeliveryOutcomes.map((outcome) => ({ value: outcome, label: t(`outcomes.${outcome}`) }))}
      />
      <Field label={t("deliveries.filters.resourceId")} description={t("deliveries.filters.resourceIdHelp")}>
        <Input name="resourceId" type="search" autoComplete="off" defaultValue={values.resourceId ?? ""} />
      </Field>
      <Field label={t("deliveries.filters.deliveryId")}>
        <Input name="deliveryId" type="search" autoComplete="off" defaultValue={values.deliveryId ?? ""} />
      </Field>
      <PeriodFilterFields
        fromLabel={t("deliveries.filters.from")}
        toLabel={t("deliveries.filters.to")}
        from={values.from ?? undefined}
        to={values.to ?? undefined}
        isFromBoundedByTo
      />
      {values.webhookId ? <input type="hidden" name="webhookId" value={values.webhookId} /> : null}
      <FilterFormActions
        applyLabel={t("deliveries.filters.apply")}
        clearLabel={t("deliveries.filters.clear")}
        clearHref="/webhooks/deliveries"
        hasFilters={hasFilters}
        isPending={isPending}
        className="items-end sm:col-span-2"
      />
    </FilterForm>
  );
}
