import { ReceiptIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { LiveRefresh } from "@/components/live/live-refresh";
import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { requirePermission } from "@/lib/auth/session";
import { defaultPeriod, periodBounds } from "@/lib/list/period";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";
import { findUnreportedCardPayments } from "@/lib/pos/match";
import { findPosSales, getPosSalesTotals, type TPosSaleTotal } from "@/lib/pos/sales";

import { MatchNowButton } from "../_components/match-now-button";
import { PosSalesFilters } from "../_components/pos-sales-filters";
import { PosSalesTable } from "../_components/pos-sales-table";
import { PosSalesTotalsTable } from "../_components/pos-sales-totals-table";
import { PosTabs } from "../_components/pos-tabs";
import { PosUnreportedTable } from "../_components/pos-unreported-table";
import { loadPosSalesSearchParams, serializePosSalesSearchParams } from "../search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pos.sales");
  return { title: t("title") };
}

export default async function PosSalesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission("pos.manage");
  const values = await loadPosSalesSearchParams(searchParams);
  const filters = toListFilters(values);
  // Totals and the "not reported" list need a period: the last 7 days unless one is chosen.
  const period = filters.from || filters.to ? { from: filters.from, to: filters.to } : defaultPeriod();
  const [t, result, totals, unreported] = await Promise.all([
    getTranslations("pos"),
    findPosSales(filters),
    getPosSalesTotals({ ...filters, ...period }),
    findUnreportedCardPayments(periodBounds(period)),
  ]);
  const empty = (
    <EmptyState
      icon={ReceiptIcon}
      title={t("sales.empty.title")}
      description={hasListFilters(values) ? t("sales.empty.filtered") : t("sales.empty.description")}
    />
  );

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      {/* A report arriving or a match found while the page is open renders the list again. */}
      <LiveRefresh kinds={["pos_sale"]} />
      <div>
        <PageHeader title={t("sales.title")} description={t("sales.description")} actions={<MatchNowButton />} />
        <PosTabs active="sales" />
      </div>
      <PosSalesFilters />

      <section aria-labelledby="pos-sales-list" className="grid gap-3">
        <h2 id="pos-sales-list" className="sr-only">
          {t("sales.listTitle")}
        </h2>
        {result.rows.length === 0 ? (
          empty
        ) : (
          <>
            <PosSalesTable rows={result.rows} empty={empty} />
            <p className="text-sm text-muted-foreground">{t("total", { count: result.total })}</p>
            <Pagination
              page={result.page}
              pageCount={result.pageCount}
              hrefForPage={(page) => serializePosSalesSearchParams("/pos/sales", { ...values, page })}
            />
          </>
        )}
      </section>

      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-2">
        <TotalsCard
          title={t("sales.totals.byDay")}
          description={t("sales.totals.period", { from: period.from ?? "…", to: period.to ?? "…" })}
          grouping="day"
          rows={totals.byDay}
          empty={t("sales.totals.empty")}
        />
        <TotalsCard
          title={t("sales.totals.byPos")}
          description={t("sales.totals.all", { count: totals.all.approvedCount })}
          grouping="pos"
          rows={totals.byPos}
          empty={t("sales.totals.empty")}
        />
      </div>

      <Card>
        <CardHeader>
          <CardTitle>{t("sales.unreported.title")}</CardTitle>
          <CardDescription>{t("sales.unreported.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          <PosUnreportedTable
            rows={unreported}
            empty={<p className="text-sm text-muted-foreground">{t("sales.unreported.empty")}</p>}
          />
        </CardContent>
      </Card>
    </div>
  );
}

type TotalsCardProps = {
  title: string;
  description: string;
  grouping: "day" | "pos";
  rows: TPosSaleTotal[];
  empty: string;
};

function TotalsCard({ title, description, grouping, rows, empty }: TotalsCardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <PosSalesTotalsTable
          grouping={grouping}
          rows={rows}
          caption={title}
          empty={<p className="text-sm text-muted-foreground">{empty}</p>}
        />
      </CardContent>
    </Card>
  );
}
