import { InboxIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { DataTablePagination } from "@/components/data-table/data-table-pagination";
import { FilterFormActions } from "@/components/data-table/filter-form-actions";
import { buildListHref } from "@/components/data-table/list-href";
import { LiveRefresh } from "@/components/live/live-refresh";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { requireUser } from "@/lib/auth/session";
import { webhookEvents } from "@/lib/gateway/schemas/webhook";
import { hasDeliveryFilters, webhookDeliveryOutcomes, webhookEventKey, ZDeliveryFilters, type TDeliveryFilters } from "@/lib/webhooks/delivery-filters";
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
export default async function WebhookDeliveriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
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

      {/* A plain GET form: the filters live in the URL, so a filtered view can be reloaded and shared. */}
      <form
        method="get"
        action="/webhooks/deliveries"
        aria-label={t("deliveries.filters.label")}
        className="grid gap-4 rounded-lg border p-4 sm:grid-cols-2 lg:grid-cols-4"
      >
        {/* Label and id by hand: from a server component, Field would put the id on NativeSelect's wrapper div. */}
        <div className="grid content-start gap-2">
          <Label htmlFor="delivery-event">{t("deliveries.filters.event")}</Label>
          <NativeSelect id="delivery-event" name="event" defaultValue={filters.event ?? ""}>
            <option value="">{t("deliveries.filters.anyEvent")}</option>
            {webhookEvents.map((event) => (
              <option key={event} value={event}>
                {t(`events.${webhookEventKey(event)}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor="delivery-outcome">{t("deliveries.filters.outcome")}</Label>
          <NativeSelect id="delivery-outcome" name="outcome" defaultValue={filters.outcome ?? ""}>
            <option value="">{t("deliveries.filters.anyOutcome")}</option>
            {webhookDeliveryOutcomes.map((outcome) => (
              <option key={outcome} value={outcome}>
                {t(`outcomes.${outcome}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Field label={t("deliveries.filters.resourceId")} description={t("deliveries.filters.resourceIdHelp")}>
          <Input name="resourceId" type="search" autoComplete="off" defaultValue={filters.resourceId ?? ""} />
        </Field>
        <Field label={t("deliveries.filters.deliveryId")}>
          <Input name="deliveryId" type="search" autoComplete="off" defaultValue={filters.deliveryId ?? ""} />
        </Field>
        <Field label={t("deliveries.filters.from")}>
          <Input name="from" type="date" defaultValue={filters.from ?? ""} max={filters.to} />
        </Field>
        <Field label={t("deliveries.filters.to")}>
          <Input name="to" type="date" defaultValue={filters.to ?? ""} />
        </Field>
        {filters.webhookId ? <input type="hidden" name="webhookId" value={filters.webhookId} /> : null}
        <FilterFormActions
          applyLabel={t("deliveries.filters.apply")}
          clearLabel={t("deliveries.filters.clear")}
          clearHref="/webhooks/deliveries"
          hasFilters={hasFilters}
          className="items-end sm:col-span-2"
        />
      </form>

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
