import { ReceiptIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import { PageHeader } from "@/components/page-header";
import { StatusBadge } from "@/components/status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { requireAdmin } from "@/lib/auth/session";
import { defaultPeriod, periodBounds } from "@/lib/list/period";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";
import { findUnreportedCardPayments } from "@/lib/pos/match";
import { findPosSales, getPosSalesTotals, type TPosSaleTotal } from "@/lib/pos/sales";

import { MatchNowButton } from "../_components/match-now-button";
import { matchTone } from "../_components/match-tone";
import { PosSalesFilters } from "../_components/pos-sales-filters";
import { PosTabs } from "../_components/pos-tabs";
import { loadPosSalesSearchParams, serializePosSalesSearchParams } from "../search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pos.sales");
  return { title: t("title") };
}

export default async function PosSalesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin();
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

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
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
          <EmptyState
            icon={ReceiptIcon}
            title={t("sales.empty.title")}
            description={hasListFilters(values) ? t("sales.empty.filtered") : t("sales.empty.description")}
          />
        ) : (
          <>
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("sales.columns.occurredAt")}</TableHead>
                  <TableHead>{t("sales.columns.amount")}</TableHead>
                  <TableHead>{t("sales.columns.approved")}</TableHead>
                  <TableHead>{t("sales.columns.brand")}</TableHead>
                  <TableHead>{t("sales.columns.pos")}</TableHead>
                  <TableHead>{t("sales.columns.authorization")}</TableHead>
                  <TableHead>{t("sales.columns.match")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {result.rows.map((sale) => (
                  <TableRow key={sale.id}>
                    <TableCell>
                      <Link href={`/pos/sales/${sale.id}`} className="underline-offset-4 hover:underline">
                        <DateTime value={sale.occurredAt} />
                      </Link>
                    </TableCell>
                    <TableCell>
                      <Money cents={sale.amountCents} />
                    </TableCell>
                    <TableCell>{sale.approved ? t("yes") : t("no")}</TableCell>
                    <TableCell className="text-xs">
                      {sale.cardBrand}
                      <div className="text-muted-foreground">{sale.acquirerNetwork}</div>
                    </TableCell>
                    <TableCell className="font-mono text-xs">{sale.posId}</TableCell>
                    <TableCell className="font-mono text-xs">{sale.authorizationCode}</TableCell>
                    <TableCell>
                      <StatusBadge status={sale.matchStatus} toneByStatus={matchTone}>
                        {t(`sales.match.${sale.matchStatus}`)}
                      </StatusBadge>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
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
          keyLabel={t("sales.totals.day")}
          rows={totals.byDay}
          labels={{
            count: t("sales.totals.count"),
            approved: t("sales.totals.approved"),
            empty: t("sales.totals.empty"),
          }}
        />
        <TotalsCard
          title={t("sales.totals.byPos")}
          description={t("sales.totals.all", { count: totals.all.approvedCount })}
          keyLabel={t("sales.columns.pos")}
          rows={totals.byPos}
          labels={{
            count: t("sales.totals.count"),
            approved: t("sales.totals.approved"),
            empty: t("sales.totals.empty"),
          }}
        />
      </div>

      <Card>
        <CardHeader>
          <CardTitle>{t("sales.unreported.title")}</CardTitle>
          <CardDescription>{t("sales.unreported.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          {unreported.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("sales.unreported.empty")}</p>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("sales.columns.occurredAt")}</TableHead>
                  <TableHead>{t("sales.columns.amount")}</TableHead>
                  <TableHead>{t("sales.columns.brand")}</TableHead>
                  <TableHead>{t("sales.columns.authorization")}</TableHead>
                  <TableHead>{t("sales.unreported.nsu")}</TableHead>
                  <TableHead>{t("sales.unreported.origin")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {unreported.map((payment) => (
                  <TableRow key={payment.id}>
                    <TableCell>
                      <DateTime value={payment.occurredAt} />
                    </TableCell>
                    <TableCell>
                      <Money cents={payment.amountCents} />
                    </TableCell>
                    <TableCell className="text-xs">{payment.brandCode ?? "—"}</TableCell>
                    <TableCell className="font-mono text-xs">{payment.authorizationNumber ?? "—"}</TableCell>
                    <TableCell className="font-mono text-xs">
                      {payment.hostUsn ?? "—"} / {payment.gatewayUsn ?? "—"}
                    </TableCell>
                    <TableCell className="text-xs">{payment.origin}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

type TotalsCardProps = {
  title: string;
  description: string;
  keyLabel: string;
  rows: TPosSaleTotal[];
  labels: { count: string; approved: string; empty: string };
};

function TotalsCard({ title, description, keyLabel, rows, labels }: TotalsCardProps) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">{labels.empty}</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{keyLabel}</TableHead>
                <TableHead className="text-right">{labels.count}</TableHead>
                <TableHead className="text-right">{labels.approved}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.key}>
                  <TableCell className="font-mono text-xs">{row.key}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {row.approvedCount}/{row.count}
                  </TableCell>
                  <TableCell className="text-right">
                    <Money cents={row.approvedCents} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
