"use client";

import { useTranslations } from "next-intl";
import { FilterSelect } from "@/components/data-table/filter-select";
import { ListFilterForm } from "@/components/data-table/list-filter-form";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { webhookDeliveryOutcomes, webhookEventKey } from "@/lib/webhooks/schemas";

import { deliverySearchParams } from "../deliveries/(list)/search-params";

/** The delivery history's filters; `events` are the registry's event names (read on the server). */
export function DeliveryFilters({ events }: { events: readonly string[] }) {
  const t = useTranslations("webhooks");

  return (
    <ListFilterForm
      parsers={deliverySearchParams}
      action="/webhooks/deliveries"
      label={t("deliveries.filters.label")}
      columns={4}
    >
      {(values) => (
        <>
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
        </>
      )}
    </ListFilterForm>
  );
}
