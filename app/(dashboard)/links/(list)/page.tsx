import { LinkIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { ResourceListPage } from "@/components/data-table/resource-list-page";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { defaultLinkPeriod, findPaymentLinks } from "@/lib/links/payment-links";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";

import { PaymentLinkFilters } from "../_components/payment-link-filters";
import { PaymentLinksTable } from "../_components/payment-links-table";
import { RefreshLinksButton } from "../_components/refresh-links-button";
import { loadPaymentLinkSearchParams, serializePaymentLinkSearchParams } from "./search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("links");
  return { title: t("title") };
}

export default async function PaymentLinksPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePermission("payments.view");
  const values = await loadPaymentLinkSearchParams(searchParams);
  // The period is never open-ended (the upstream list requires one): absent days mean the last 30.
  const fallback = defaultLinkPeriod();
  const period = { from: values.from ?? fallback.from, to: values.to ?? fallback.to };
  const result = await findPaymentLinks({ ...toListFilters(values), ...period });

  return (
    <ResourceListPage
      namespace="links"
      liveKinds={["payment_link"]}
      create={can(user, "links.manage") ? { href: "/links/new", labelKey: "newLink" } : undefined}
      refreshButton={<RefreshLinksButton period={period} />}
      filters={<PaymentLinkFilters period={period} />}
      result={result}
      hasFilters={hasListFilters(values)}
      exportEndpoint={can(user, "exports.download") ? "/api/exports/links" : undefined}
      hrefForPage={(page) => serializePaymentLinkSearchParams("/links", { ...values, page })}
      emptyIcon={LinkIcon}
      table={(empty) => <PaymentLinksTable rows={result.rows} empty={empty} />}
    />
  );
}
