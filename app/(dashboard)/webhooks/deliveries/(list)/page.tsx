import { InboxIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { ListPageLayout } from "@/components/data-table/list-page-layout";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
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
  const user = await requirePermission("webhooks.view");
  const values = await loadDeliverySearchParams(searchParams);
  const [result, t] = await Promise.all([findWebhookDeliveries(toListFilters(values)), getTranslations("webhooks")]);
  const hasFilters = hasListFilters(values);

  return (
    <ListPageLayout
      liveKinds={["webhook_delivery"]}
      header={
        <div>
          <PageHeader title={t("deliveries.title")} description={t("deliveries.description")} />
          <WebhooksTabs active="deliveries" permissions={user.permissions} />
        </div>
      }
      filters={<DeliveryFilters events={allEventKinds.map(({ event }) => event)} />}
      result={result}
      totalLabel={t("deliveries.total", { count: result.total })}
      exportEndpoint={can(user, "exports.download") ? "/api/exports/webhook-deliveries" : undefined}
      hrefForPage={(page) => serializeDeliverySearchParams("/webhooks/deliveries", { ...values, page, cursor: null })}
      hrefForCursor={(cursor) =>
        serializeDeliverySearchParams("/webhooks/deliveries", { ...values, page: null, cursor })
      }
    >
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
    </ListPageLayout>
  );
}
