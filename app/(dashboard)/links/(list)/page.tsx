import { LinkIcon, PlusIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { ListPageLayout } from "@/components/data-table/list-page-layout";
import { totalAmountLabel } from "@/components/data-table/total-amount-label";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { requireUser } from "@/lib/auth/session";
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
  await requireUser();
  const values = await loadPaymentLinkSearchParams(searchParams);
  // The period is never open-ended (the upstream list requires one): absent days mean the last 30.
  const fallback = defaultLinkPeriod();
  const period = { from: values.from ?? fallback.from, to: values.to ?? fallback.to };
  const [result, t] = await Promise.all([
    findPaymentLinks({ ...toListFilters(values), ...period }),
    getTranslations("links"),
  ]);
  const hasFilters = hasListFilters(values);

  return (
    <ListPageLayout
      liveKinds={["payment_link"]}
      header={
        <PageHeader
          className="mb-0"
          title={t("title")}
          description={t("description")}
          actions={
            <>
              <RefreshLinksButton period={period} />
              <Button asChild>
                <Link href="/links/new">
                  <PlusIcon aria-hidden="true" />
                  {t("newLink")}
                </Link>
              </Button>
            </>
          }
        />
      }
      filters={<PaymentLinkFilters period={period} />}
      result={result}
      totalLabel={t("list.total", { count: result.total })}
      exportEndpoint="/api/exports/links"
      totalAmountLabel={await totalAmountLabel(result.totalCents)}
      hrefForPage={(page) => serializePaymentLinkSearchParams("/links", { ...values, page })}
    >
      <PaymentLinksTable
        rows={result.rows}
        empty={
          <EmptyState
            icon={LinkIcon}
            title={t("list.empty.title")}
            description={hasFilters ? t("list.empty.filtered") : t("list.empty.description")}
            action={
              <Button asChild variant="outline">
                <Link href="/links/new">{t("newLink")}</Link>
              </Button>
            }
          />
        }
      />
    </ListPageLayout>
  );
}
