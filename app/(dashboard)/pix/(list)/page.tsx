import { PlusIcon, QrCodeIcon } from "lucide-react";
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
import { pixChargeStatusKey } from "@/components/pix-charge-status-badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { requireUser } from "@/lib/auth/session";
import { defaultPeriod } from "@/lib/format/period";
import { findPixCharges } from "@/lib/pix/charges";
import { type TPixChargeFilters, ZPixChargeFilters } from "@/lib/pix/schemas";
import { pixChargeStatuses } from "@/lib/pix/types";

import { PixChargesTable } from "../_components/pix-charges-table";
import { RefreshFromGatewayButton } from "../_components/refresh-from-gateway-button";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pix");
  return { title: t("title") };
}

function hrefFor(filters: TPixChargeFilters, page: number): string {
  return buildListHref("/pix", { ...filters, page });
}

export default async function PixChargesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireUser();
  const parsed = ZPixChargeFilters.parse(await searchParams);
  // The period is never open-ended (the upstream list requires one): absent days mean the last 7.
  const fallback = defaultPeriod();
  const filters: TPixChargeFilters = { ...parsed, from: parsed.from ?? fallback.from, to: parsed.to ?? fallback.to };
  const period = { from: filters.from!, to: filters.to! };
  const [result, t] = await Promise.all([findPixCharges(filters), getTranslations("pix")]);
  const hasFilters = Boolean(
    parsed.from || parsed.to || parsed.status || parsed.document || parsed.userReference || parsed.txid,
  );

  return (
    <div className="grid gap-6">
      {/* Renders the list again when a change is pushed (a webhook, a reconciliation, another user). */}
      <LiveRefresh kinds={["pix_charge"]} />
      <PageHeader
        className="mb-0"
        title={t("title")}
        description={t("description")}
        actions={
          <>
            <RefreshFromGatewayButton period={period} />
            <Button asChild>
              <Link href="/pix/new">
                <PlusIcon aria-hidden="true" />
                {t("newCharge")}
              </Link>
            </Button>
          </>
        }
      />

      <FilterForm action="/pix" label={t("list.filters.label")} className="lg:grid-cols-3">
        <PeriodFilterFields
          fromLabel={t("list.filters.from")}
          toLabel={t("list.filters.to")}
          from={period.from}
          to={period.to}
          isFromBoundedByTo
        />
        <FilterSelect
          id="pix-status"
          name="status"
          label={t("list.filters.status")}
          anyLabel={t("list.filters.anyStatus")}
          defaultValue={filters.status ?? ""}
          options={pixChargeStatuses.map((status) => ({
            value: status,
            label: t(`status.${pixChargeStatusKey(status)}`),
          }))}
        />
        <Field label={t("list.filters.document")}>
          <Input name="document" inputMode="numeric" autoComplete="off" defaultValue={filters.document ?? ""} />
        </Field>
        <Field label={t("list.filters.reference")}>
          <Input name="userReference" autoComplete="off" defaultValue={filters.userReference ?? ""} />
        </Field>
        <Field label={t("list.filters.txid")}>
          <Input name="txid" type="search" autoComplete="off" defaultValue={filters.txid ?? ""} />
        </Field>
        <FilterFormActions
          applyLabel={t("list.filters.apply")}
          clearLabel={t("list.filters.clear")}
          clearHref="/pix"
          hasFilters={hasFilters}
          sort={filters.sort}
          order={filters.order}
          className="sm:col-span-2 lg:col-span-3"
        />
      </FilterForm>

      <PixChargesTable
        rows={result.rows}
        empty={
          <EmptyState
            icon={QrCodeIcon}
            title={t("list.empty.title")}
            description={hasFilters ? t("list.empty.filtered") : t("list.empty.description")}
            action={
              <Button asChild variant="outline">
                <Link href="/pix/new">{t("newCharge")}</Link>
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
