import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import type { SearchParams } from "nuqs/server";

import { DataTablePagination } from "@/components/data-table/data-table-pagination";
import { ExportCsvButton } from "@/components/data-table/export-csv-button";
import { EmptyState } from "@/components/ui/empty-state";
import { findAuditEntries } from "@/lib/audit/audit-log";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { hasListFilters, toListFilters } from "@/lib/list/search-params";

import { AuditFilters } from "./_components/audit-filters";
import { AuditTable } from "./_components/audit-table";
import { loadAuditSearchParams, serializeAuditSearchParams } from "./search-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("audit");
  return { title: t("title") };
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePermission("audit.view");
  const values = await loadAuditSearchParams(searchParams);
  const [result, t] = await Promise.all([findAuditEntries(toListFilters(values)), getTranslations("audit")]);
  const hasFilters = hasListFilters(values);
  const empty = (
    <EmptyState title={t("empty.title")} description={hasFilters ? t("empty.filtered") : t("empty.description")} />
  );

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="text-sm text-muted-foreground">{t("description")}</p>
        </div>
        {result.rows.length > 0 && can(user, "exports.download") ? (
          <ExportCsvButton endpoint="/api/exports/audit" />
        ) : null}
      </div>

      <AuditFilters />

      {result.rows.length === 0 ? (
        empty
      ) : (
        <>
          <AuditTable rows={result.rows} empty={empty} />
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
