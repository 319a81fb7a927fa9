import { LinkIcon, PlusIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { DataTablePagination } from "@/components/data-table/data-table-pagination";
import { FilterForm } from "@/components/data-table/filter-form";
import { FilterFormActions } from "@/components/data-table/filter-form-actions";
import { FilterSelect } from "@/components/data-table/filter-select";
import { buildListHref } from "@/components/data-table/list-href";
import { PeriodFilterFields } from "@/components/data-table/period-filter-fields";
import { LiveRefresh } from "@/components/live/live-refresh";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { requireUser } from "@/lib/auth/session";
import { defaultLinkPeriod, findPaymentLinks } from "@/lib/links/payment-links";
import { type TPaymentLinkFilters, ZPaymentLinkFilters } from "@/lib/links/schemas";
import { paymentLinkMethodCodes, paymentLinkStatusFilters } from "@/lib/links/types";

import { PaymentLinksTable } from "../_components/payment-links-table";
import { RefreshLinksButton } from "../_components/refresh-links-button";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("links");
  return { title: t("title") };
}

function hrefFor(filters: TPaymentLinkFilters, page: number): string {
  return buildListHref("/links", { ...filters, page });
}

export default async function PaymentLinksPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireUser();
  const parsed = ZPaymentLinkFilters.parse(await searchParams);
  // The period is never open-ended (the upstream list requires one): absent days mean the last 30.
  const fallback = defaultLinkPeriod();
  const period = { from: parsed.from ?? fallback.from, to: parsed.to ?? fallback.to };
  const filters: TPaymentLinkFilters = { ...parsed, ...period };
  const [result, t] = await Promise.all([findPaymentLinks(filters), getTranslations("links")]);
  const hasFilters = Boolean(
    parsed.from ||
      parsed.to ||
      parsed.status ||
      parsed.method ||
      parsed.document ||
      parsed.userReference ||
      parsed.receipt,
  );

  return (
    <div className="grid gap-6">
      {/* Renders the list again when a link changes (a payment, a webhook, another user). */}
      <LiveRefresh kinds={["payment_link"]} />
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

      <FilterForm action="/links" label={t("list.filters.label")} className="lg:grid-cols-4">
        <PeriodFilterFields
          fromLabel={t("list.filters.from")}
          toLabel={t("list.filters.to")}
          from={period.from}
          to={period.to}
          isFromBoundedByTo
        />
        <FilterSelect
          id="links-status"
          name="status"
          label={t("list.filters.status")}
          anyLabel={t("list.filters.anyStatus")}
          defaultValue={filters.status ?? ""}
          options={paymentLinkStatusFilters.map((status) => ({ value: status, label: t(`statusFilter.${status}`) }))}
        />
        <FilterSelect
          id="links-method"
          name="method"
          label={t("list.filters.method")}
          anyLabel={t("list.filters.anyMethod")}
          defaultValue={filters.method ? String(filters.method) : ""}
          options={Object.values(paymentLinkMethodCodes).map((code) => ({ value: code, label: t(`methods.${code}`) }))}
        />
        <Field label={t("list.filters.document")}>
          <Input name="document" autoComplete="off" defaultValue={filters.document ?? ""} />
        </Field>
        <Field label={t("list.filters.reference")}>
          <Input name="userReference" autoComplete="off" defaultValue={filters.userReference ?? ""} />
        </Field>
        <Field label={t("list.filters.receipt")}>
          <Input name="receipt" autoComplete="off" defaultValue={filters.receipt ?? ""} />
        </Field>
        <FilterFormActions
          applyLabel={t("list.filters.apply")}
          clearLabel={t("list.filters.clear")}
          clearHref="/links"
          hasFilters={hasFilters}
          sort={filters.sort}
          order={filters.order}
          className="items-end"
        />
      </FilterForm>

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
      <DataTablePagination
        rowCount={result.rows.length}
        totalLabel={t("list.total", { count: result.total })}
        page={result.page}
        pageCount={result.pageCount}
        hrefForPage={(page) => hrefFor(filters, page)}
      />
    </div>
  );
}
