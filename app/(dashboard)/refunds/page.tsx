import { Undo2Icon } from "lucide-react";
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
import { findPixRefunds } from "@/lib/pix/refunds";
import { type TPixRefundFilters, ZPixRefundFilters } from "@/lib/pix/schemas";
import { pixRefundStatusCodes } from "@/lib/pix/types";

import { PixRefundsTable } from "./_components/pix-refunds-table";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("refunds");
  return { title: t("title") };
}

function hrefFor(filters: TPixRefundFilters, page: number): string {
  return buildListHref("/refunds", { ...filters, page });
}

export default async function RefundsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireUser();
  const filters = ZPixRefundFilters.parse(await searchParams);
  const [result, t] = await Promise.all([findPixRefunds(filters), getTranslations("refunds")]);
  const hasFilters = Boolean(filters.from || filters.to || filters.txid || filters.statusCode);

  return (
    <div className="grid gap-6">
      {/* Renders the list again when a change is pushed (a webhook, a reconciliation, another user). */}
      <LiveRefresh kinds={["pix_refund"]} />
      <PageHeader className="mb-0" title={t("title")} description={t("description")} />

      <FilterForm action="/refunds" label={t("filters.label")} className="lg:grid-cols-4">
        <PeriodFilterFields
          fromLabel={t("filters.from")}
          toLabel={t("filters.to")}
          from={filters.from}
          to={filters.to}
        />
        <Field label={t("filters.txid")}>
          <Input name="txid" type="search" autoComplete="off" defaultValue={filters.txid ?? ""} />
        </Field>
        <FilterSelect
          id="refund-status"
          name="statusCode"
          label={t("filters.status")}
          anyLabel={t("filters.anyStatus")}
          defaultValue={filters.statusCode ?? ""}
          options={Object.values(pixRefundStatusCodes).map((code) => ({ value: code, label: t(`status.${code}`) }))}
        />
        <FilterFormActions
          applyLabel={t("filters.apply")}
          clearLabel={t("filters.clear")}
          clearHref="/refunds"
          hasFilters={hasFilters}
          sort={filters.sort}
          order={filters.order}
          className="sm:col-span-2 lg:col-span-4"
        />
      </FilterForm>

      <PixRefundsTable
        rows={result.rows}
        empty={
          <EmptyState
            icon={Undo2Icon}
            title={t("empty.title")}
            description={hasFilters ? t("empty.filtered") : t("empty.description")}
            action={
              <Button asChild variant="outline">
                <Link href="/pix">{t("empty.goToCharges")}</Link>
              </Button>
            }
          />
        }
      />
      <DataTablePagination
        rowCount={result.rows.length}
        totalLabel={t("total", { count: result.total })}
        page={result.page}
        pageCount={result.pageCount}
        hrefForPage={(page) => hrefFor(filters, page)}
      />
    </div>
  );
}
