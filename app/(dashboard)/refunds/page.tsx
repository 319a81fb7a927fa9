import { Undo2Icon } from "lucide-react";
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
import { findPixRefunds } from "@/lib/pix/refunds";
import { ZPixRefundFilters, type TPixRefundFilters } from "@/lib/pix/schemas";
import { pixRefundStatusCodes } from "@/lib/pix/types";

import { PixRefundsTable } from "./_components/pix-refunds-table";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("refunds");
  return { title: t("title") };
}

function hrefFor(filters: TPixRefundFilters, page: number): string {
  return buildListHref("/refunds", { ...filters, page });
}

export default async function RefundsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireUser();
  const filters = ZPixRefundFilters.parse(await searchParams);
  const [result, t] = await Promise.all([findPixRefunds(filters), getTranslations("refunds")]);
  const hasFilters = Boolean(filters.from || filters.to || filters.txid || filters.statusCode);

  return (
    <div className="grid gap-6">
      {/* Renders the list again when a change is pushed (a webhook, a reconciliation, another user). */}
      <LiveRefresh kinds={["pix_refund"]} />
      <PageHeader className="mb-0" title={t("title")} description={t("description")} />

      {/* A plain GET form: the filters live in the URL, so a filtered view can be reloaded and shared. */}
      <form method="get" action="/refunds" aria-label={t("filters.label")} className="grid gap-4 rounded-lg border p-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field label={t("filters.from")}>
          <Input name="from" type="date" defaultValue={filters.from ?? ""} />
        </Field>
        <Field label={t("filters.to")}>
          <Input name="to" type="date" defaultValue={filters.to ?? ""} />
        </Field>
        <Field label={t("filters.txid")}>
          <Input name="txid" type="search" autoComplete="off" defaultValue={filters.txid ?? ""} />
        </Field>
        {/* Label and id by hand: from a server component, Field would put the id on NativeSelect's wrapper div. */}
        <div className="grid content-start gap-2">
          <Label htmlFor="refund-status">{t("filters.status")}</Label>
          <NativeSelect id="refund-status" name="statusCode" defaultValue={filters.statusCode ?? ""}>
            <option value="">{t("filters.anyStatus")}</option>
            {Object.values(pixRefundStatusCodes).map((code) => (
              <option key={code} value={code}>
                {t(`status.${code}`)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <FilterFormActions
          applyLabel={t("filters.apply")}
          clearLabel={t("filters.clear")}
          clearHref="/refunds"
          hasFilters={hasFilters}
          sort={filters.sort}
          order={filters.order}
          className="sm:col-span-2 lg:col-span-4"
        />
      </form>

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
