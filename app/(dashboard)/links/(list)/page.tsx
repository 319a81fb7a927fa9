import { LinkIcon, PlusIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { DataTablePagination } from "@/components/data-table/data-table-pagination";
import { FilterFormActions } from "@/components/data-table/filter-form-actions";
import { buildListHref } from "@/components/data-table/list-href";
import { LiveRefresh } from "@/components/live/live-refresh";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { requireUser } from "@/lib/auth/session";
import { defaultLinkPeriod, findPaymentLinks } from "@/lib/links/payment-links";
import { ZPaymentLinkFilters, type TPaymentLinkFilters } from "@/lib/links/schemas";
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

export default async function PaymentLinksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireUser();
  const parsed = ZPaymentLinkFilters.parse(await searchParams);
  // The period is never open-ended (the upstream list requires one): absent days mean the last 30.
  const fallback = defaultLinkPeriod();
  const period = { from: parsed.from ?? fallback.from, to: parsed.to ?? fallback.to };
  const filters: TPaymentLinkFilters = { ...parsed, ...period };
  const [result, t] = await Promise.all([findPaymentLinks(filters), getTranslations("links")]);
  const hasFilters = Boolean(parsed.from || parsed.to || parsed.status || parsed.method || parsed.document || parsed.userReference || parsed.receipt);

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

      {/* A plain GET form: the filters live in the URL, so a filtered view can be reloaded and shared. */}
      <form method="get" action="/links" aria-label={t("list.filters.label")} className="grid gap-4 rounded-lg border p-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field label={t("list.filters.from")}>
          <Input name="from" type="date" defaultValue={period.from} max={period.to} />
        </Field>
        <Field label={t("list.filters.to")}>
          <Input name="to" type="date" defaultValue={period.to} />
        </Field>
        {/* Label and id by hand: from a server component, Field would put the id on NativeSelect's wrapper div. */}
        <div className="grid content-start gap-2">
          <Label htmlFor="links-status">{t("list.filters.status")}</Label>
          <NativeSelect id="links-status" name="status" defaultValue={filters.status ?? ""}>
            <option value="">{t("list.filters.anyStatus")}</option>
            {paymentLinkStatusFilters.map((status) => (
              <option key={status} value={status}>
                {t(`statusFilter.${status}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor="links-method">{t("list.filters.method")}</Label>
          <NativeSelect id="links-method" name="method" defaultValue={filters.method ? String(filters.method) : ""}>
            <option value="">{t("list.filters.anyMethod")}</option>
            {Object.values(paymentLinkMethodCodes).map((code) => (
              <option key={code} value={code}>
                {t(`methods.${code}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
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
      </form>

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
