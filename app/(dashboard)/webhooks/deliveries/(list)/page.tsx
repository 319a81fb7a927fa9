import { InboxIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { DataTablePagination } from "@/components/data-table/data-table-pagination";
import { FilterForm } from "@/components/data-table/filter-form";
import { FilterFormActions } from "@/components/data-table/filter-form-actions";
import { FilterSelect } from "@/components/data-table/filter-select";
import { buildListHref } from "@/components/data-table/list-href";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { LiveRefresh } from "@/components/live/live-refresh";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { requireUser } from "@/lib/auth/session";
import { webhookEvents } from "@/lib/gateway/schemas/webhook";
import {
  hasDeliveryFilters,
  type TDeliveryFilters,
  webhookDeliveryOutcomes,
  webhookEventKey,
  ZDeliveryFilters,
} from "@/lib/webhooks/delivery-filters";
import { findWebhookDeliveries } from "@/lib/webhooks/history";

import { DeliveriesTable } from "../../_components/deliveries-table";
import { WebhooksTabs } from "../../_components/webhooks-tabs";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks.deliveries");
  return { title: t("title") };
}

function hrefFor(filters: TDeliveryFilters, page: number): string {
  return buildListHref("/webhooks/deliveries", { ...filters, page });
}

// Admin and staff: the history shows what happened, and changes nothing.
export default async function WebhookDeliveriesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireUser();
  const filters = ZDeliveryFilters.parse(await searchParams);
  const [result, t] = await Promise.all([findWebhookDeliveries(filters), getTranslations("webhooks")]);
  const hasFilters = hasDeliveryFilters(filters);

  return (
    <div className="grid gap-6">
      {/* New deliveries re-render the page (filters and page kept); no polling. */}
      <LiveRefresh kinds={["webhook_delivery"]} />
      <div>
        <PageHeader title={t("deliveries.title")} description={t("deliveries.description")} />
        <WebhooksTabs active="deliveries" isAdmin={user.role === "ADMIN"} />
      </div>

      <FilterForm action="/webhooks/deliveries" label={t("deliveries.filters.label")} className="lg:grid-cols-4">
        <FilterSelect
          id="delivery-event"
          name="event"
          label={t("deliveries.filters.event")}
          anyLabel={t("deliveries.filters.anyEvent")}
          defaultValue={filters.event ?? ""}
          options={webhookEvents.map((event) => ({ value: event, label: t(`events.${webhookEventKey(event)}`) }))}
        />
        <FilterSelect
          id="delivery-outcome"
          name="outcome"
          label={t("deliveries.filters.outcome")}
          anyLabel={t("deliveries.filters.anyOutcome")}
          defaultValue={filters.outcome ?? ""}
          options={webhookDeliveryOutcomes.map((outcome) => ({ value: outcome, label: t(`outcomes.${outcome}`) }))}
        />
        <Field label={t("deliveries.filters.resourceId")} description={t("deliveries.filters.resourceIdHelp")}>
          <Input name="resourceId" type="search" autoComplete="off" defaultValue={filters.resourceId ?? ""} />
        </Field>
        <Field label={t("deliveries.filters.deliveryId")}>
          <Input name="deliveryId" type="search" autoComplete="off" defaultValue={filters.deliveryId ?? ""} />
        </Field>
        <PeriodFilterFields
          fromLabel={t("deliveries.filters.from")}
          toLabel={t("deliveries.filters.to")}
          from={filters.from}
          to={filters.to}
          isFromBoundedByTo
        />
        {filters.webhookId ? <input type="hidden" name="webhookId" value={filters.webhookId} /> : null}
        <FilterFormActions
          applyLabel={t("deliveries.filters.apply")}
          clearLabel={t("deliveries.filters.clear")}
          clearHref="/webhooks/deliveries"
          hasFilters={hasFilters}
          className="items-end sm:col-span-2"
        />
      </FilterForm>

      <DeliveriesTable
        rows={result.rows}
        empty={
          <EmptyState
            icon={InboxIcon}
            title={t("deliveries.empty.title")}
            description={hasFilters ? t("deliveries.empty.filtered") : t("deliveries.empty.description")}
          />
        }
      />
      <DataTablePagination
        rowCount={result.rows.length}
        totalLabel={t("deliveries.total", { count: result.total })}
        page={result.page}
        pageCount={result.pageCount}
        hrefForPage={(page) => hrefFor(filters, page)}
      />
    </div>
  );
}
