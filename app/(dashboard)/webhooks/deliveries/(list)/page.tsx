import { InboxIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { DataTablePagination } from "@/components/data-table/data-table-pagination";
import { LiveRefresh } from "@/components/live/live-refresh";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { requireUser } from "@/lib/auth/session";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";
import { allEventKinds } from "@/lib/webhooks/event-kinds";
import { findWebhookDeliveries } from "@/lib/webhooks/history";

import { DeliveriesTable } from "../../_components/deliveries-table";
import { DeliveryFilters } from "../../_components/delivery-filters";
import { WebhooksTabs } from "../../_components/webhooks-tabs";
import { loadDeliverySearchParams, serializeDeliverySearchParams } from "./search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks.deliveries");
  return { title: t("title") };
}

// Admin and staff: the history shows what happened, and changes nothing.
export default async function WebhookDeliveriesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const values = await loadDeliverySearchParams(searchParams);
  const [result, t] = await Promise.all([findWebhookDeliveries(toListFilters(values)), getTranslations("webhooks")]);
  const hasFilters = hasListFilters(values);

  return (
    <div className="grid gap-6">
      {/* New deliveries re-render the page (filters and page kept); no polling. */}
      <LiveRefresh kinds={["webhook_delivery"]} />
      <div>
        <PageHeader title={t("deliveries.title")} description={t("deliveries.description")} />
        <WebhooksTabs active="deliveries" isAdmin={user.role === "ADMIN"} />
      </div>

      <DeliveryFilters events={allEventKinds.map(({ event }) => event)} />

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
        hrefForPage={(page) => serializeDeliverySearchParams("/webhooks/deliveries", { ...values, page })}
      />
    </div>
  );
}
