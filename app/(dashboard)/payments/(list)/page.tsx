import { CreditCardIcon } from "lucide-react";
import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { ResourceListPage } from "@/components/data-table/resource-list-page";
import { totalAmountLabel } from "@/components/data-table/total-amount-label";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { findCardPayments, type TCardPaymentTotals } from "@/lib/card-payments/list";
import { formatBRL } from "@/lib/format/money";
import type { TLocale } from "@/lib/i18n/config";
import { defaultPeriod } from "@/lib/list/period";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";

import { CardPaymentsFilters } from "../_components/card-payments-filters";
import { CardPaymentsRefreshButton } from "../_components/card-payments-refresh-button";
import { CardPaymentsTable } from "../_components/card-payments-table";
import { loadCardPaymentSearchParams, serializeCardPaymentSearchParams } from "./search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("cardPayments");
  return { title: t("title") };
}

// Approved, refused and cancelled apart: one sum would count refused payments as money received.
async function totalsLabel(totals: TCardPaymentTotals | undefined, isTotalCapped = false) {
  if (!totals) return totalAmountLabel(undefined, isTotalCapped);
  const [t, locale] = await Promise.all([getTranslations("cardPayments.list"), getLocale() as Promise<TLocale>]);
  return t("totals", {
    approved: formatBRL(totals.approved.cents, locale),
    approvedCount: totals.approved.count,
    refused: formatBRL(totals.refused.cents, locale),
    refusedCount: totals.refused.count,
    cancelled: formatBRL(totals.cancelled.cents, locale),
    cancelledCount: totals.cancelled.count,
  });
}

export default async function CardPaymentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePermission("payments.view");
  const values = await loadCardPaymentSearchParams(searchParams);
  // Absent days mean the last 7 São Paulo days, as in the other lists.
  const fallback = defaultPeriod();
  const period = { from: values.from ?? fallback.from, to: values.to ?? fallback.to };
  const result = await findCardPayments({ ...toListFilters(values), ...period });

  return (
    <ResourceListPage
      namespace="cardPayments"
      liveKinds={["card_payment"]}
      create={can(user, "cards.charge") ? { href: "/payments/new", labelKey: "newPayment" } : undefined}
      refreshButton={<CardPaymentsRefreshButton period={period} />}
      filters={<CardPaymentsFilters period={period} />}
      result={result}
      hasFilters={hasListFilters(values)}
      totalAmountLabel={await totalsLabel(result.totals, result.isTotalCapped)}
      exportEndpoint={can(user, "exports.download") ? "/api/exports/card-payments" : undefined}
      hrefForPage={(page) => serializeCardPaymentSearchParams("/payments", { ...values, page, cursor: null })}
      hrefForCursor={(cursor) => serializeCardPaymentSearchParams("/payments", { ...values, page: null, cursor })}
      emptyIcon={CreditCardIcon}
      table={(empty) => <CardPaymentsTable rows={result.rows} empty={empty} />}
    />
  );
}
