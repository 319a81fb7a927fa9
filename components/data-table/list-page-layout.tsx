import type { ReactNode } from "react";

import { LiveRefresh } from "@/components/live/live-refresh";
import type { TChangeKind } from "@/lib/events/change";

import { DataTablePagination } from "./data-table-pagination";
import { ExportCsvButton } from "./export-csv-button";

type TListPageLayoutProps = {
  /** Changes pushed for these kinds (a webhook, a reconciliation, another user) render the list again. */
  liveKinds: TChangeKind[];
  header: ReactNode;
  filters: ReactNode;
  /** The table, with its empty state. */
  children: ReactNode;
  result: {
    rows: unknown[];
    total: number;
    isTotalCapped?: boolean;
    hasMorePages?: boolean;
    page: number;
    pageCount: number;
    cursors?: { previous: string | null; next: string | null };
  };
  totalLabel: string;
  /** "Total amount: R$ …" of every row the filters select, for a list with an amount. */
  totalAmountLabel?: string;
  /** The list's CSV export (/api/exports/…), downloaded with the page's URL filters. */
  exportEndpoint?: string;
  hrefForPage: (page: number) => string;
  /** The URL of a page reached by cursor, for a list that pages by cursor past its numbered pages. */
  hrefForCursor?: (cursor: string) => string;
};

/** A mirrored list's page: header, filters, table and pagination, kept live. */
export function ListPageLayout({
  liveKinds,
  header,
  filters,
  children,
  result,
  totalLabel,
  totalAmountLabel,
  exportEndpoint,
  hrefForPage,
  hrefForCursor,
}: TListPageLayoutProps) {
  return (
    <div className="grid gap-6">
      <LiveRefresh kinds={liveKinds} />
      {header}
      {filters}
      {exportEndpoint && result.rows.length > 0 ? (
        <div className="flex justify-end">
          <ExportCsvButton endpoint={exportEndpoint} />
        </div>
      ) : null}
      {children}
      <DataTablePagination
        rowCount={result.rows.length}
        totalLabel={totalLabel}
        totalAmountLabel={totalAmountLabel}
        isTotalCapped={result.isTotalCapped}
        hasMorePages={result.hasMorePages}
        page={result.page}
        pageCount={result.pageCount}
        hrefForPage={hrefForPage}
        cursors={result.cursors}
        hrefForCursor={hrefForCursor}
      />
    </div>
  );
}
