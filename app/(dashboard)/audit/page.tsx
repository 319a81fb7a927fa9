import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { DataTablePagination } from "@/components/data-table/data-table-pagination";
import { ExportCsvButton } from "@/components/data-table/export-csv-button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { findAuditEntries } from "@/lib/audit/audit-log";
import { requireAdmin } from "@/lib/auth/session";
import { formatDateTime } from "@/lib/format/date-time";
import type { TLocale } from "@/lib/i18n/config";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";

import { AuditFilters } from "./_components/audit-filters";
import { loadAuditSearchParams, serializeAuditSearchParams } from "./search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit");
  return { title: t("title") };
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin();
  const values = await loadAuditSearchParams(searchParams);
  const [result, t, locale] = await Promise.all([
    findAuditEntries(toListFilters(values)),
    getTranslations("audit"),
    getLocale() as Promise<TLocale>,
  ]);
  const hasFilters = hasListFilters(values);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="text-sm text-muted-foreground">{t("description")}</p>
        </div>
        {result.rows.length > 0 ? <ExportCsvButton endpoint="/api/exports/audit" /> : null}
      </div>

      <AuditFilters />

      {result.rows.length === 0 ? (
        <EmptyState title={t("empty.title")} description={hasFilters ? t("empty.filtered") : t("empty.description")} />
      ) : (
        <>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("columns.occurredAt")}</TableHead>
                <TableHead>{t("columns.actor")}</TableHead>
                <TableHead>{t("columns.action")}</TableHead>
                <TableHead>{t("columns.resource")}</TableHead>
                <TableHead>{t("columns.ip")}</TableHead>
                <TableHead>{t("columns.details")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {result.rows.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell className="whitespace-nowrap tabular-nums">
                    {formatDateTime(entry.occurredAt, locale)}
                  </TableCell>
                  <TableCell>{entry.actorEmail ?? t("system")}</TableCell>
                  <TableCell>
                    {t.has(`actions.${entry.action}`) ? t(`actions.${entry.action}`) : entry.action}
                  </TableCell>
                  <TableCell className="font-mono text-xs">
                    {entry.resourceType
                      ? `${entry.resourceType}${entry.resourceId ? `:${entry.resourceId}` : ""}`
                      : "—"}
                  </TableCell>
                  <TableCell className="font-mono text-xs">{entry.ip ?? "—"}</TableCell>
                  <TableCell
                    className="max-w-xs truncate font-mono text-xs"
                    title={entry.metadata ? JSON.stringify(entry.metadata) : undefined}
                  >
                    {entry.metadata ? JSON.stringify(entry.metadata) : "—"}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <DataTablePagination
            rowCount={result.rows.length}
            totalLabel={t("total", { count: result.total })}
            isTotalCapped={result.isTotalCapped}
            hasMorePages={result.hasMorePages}
            page={result.page}
            pageCount={result.pageCount}
            hrefForPage={(page) => serializeAuditSearchParams("/audit", { ...values, page, cursor: null })}
            cursors={result.cursors}
            hrefForCursor={(cursor) => serializeAuditSearchParams("/audit", { ...values, page: null, cursor })}
          />
        </>
      )}
    </div>
  );
}
