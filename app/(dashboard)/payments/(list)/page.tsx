import { CreditCardIcon, PlusIcon } from "lucide-react";
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
import { defaultPeriod } from "@/lib/list/period";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";
import { findCardPayments } from "@/lib/payments/list";

import { CardPaymentsFilters } from "../_components/card-payments-filters";
import { CardPaymentsRefreshButton } from "../_components/card-payments-refresh-button";
import { CardPaymentsTable } from "../_components/card-payments-table";
import { loadCardPaymentSearchParams, serializeCardPaymentSearchParams } from "./search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("cardPayments");
  return { title: t("title") };
}

export default async function CardPaymentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireUser();
  const values = await loadCardPaymentSearchParams(searchParams);
  // Absent days mean the last 7 São Paulo days, as in the other lists.
  const fallback = defaultPeriod();
  const period = { from: values.from ?? fallback.from, to: values.to ?? fallback.to };
  const [result, t] = await Promise.all([
    findCardPayments({ ...toListFilters(values), ...period }),
    getTranslations("cardPayments"),
  ]);
  const hasFilters = hasListFilters(values);

  return (
    <ListPageLayout
      liveKinds={["card_payment"]}
      header={
        <PageHeader
          className="mb-0"
          title={t("title")}
          description={t("description")}
          actions={
            <>
              <CardPaymentsRefreshButton period={period} />
              <Button asChild>
                <Link href="/payments/new">
                  <PlusIcon aria-hidden="true" />
                  {t("newPayment")}
                </Link>
              </Button>
            </>
          }
        />
      }
      filters={<CardPaymentsFilters period={period} />}
      result={result}
      totalLabel={t("list.total", { count: result.total })}
      exportEndpoint="/api/exports/card-payments"
      totalAmountLabel={await totalAmountLabel(result.totalCents)}
      hrefForPage={(page) => serializeCardPaymentSearchParams("/payments", { ...values, page })}
    >
      <CardPaymentsTable
        rows={result.rows}
        empty={
          <EmptyState
            icon={CreditCardIcon}
            title={t("list.empty.title")}
            description={hasFilters ? t("list.empty.filtered") : t("list.empty.description")}
            action={
              <Button asChild variant="outline">
                <Link href="/payments/new">{t("newPayment")}</Link>
              </Button>
            }
          />
        }
      />
    </ListPageLayout>
  );
}
