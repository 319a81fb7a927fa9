import type { ReactNode } from "react";

import { LiveRefresh } from "@/components/live/live-refresh";
import type { TChangeKind } from "@/lib/events/change";

import { DataTablePagination } from "./data-table-pagination";

type TListPageLayoutProps = {
  /** Changes pushed for these kinds (a webhook, a reconciliation, another user) render the list again. */
  liveKinds: TChangeKind[];
  header: ReactNode;
  filters: ReactNode;
  /** The table, with its empty state. */
  children: ReactNode;
  result: { rows: unknown[]; total: number; page: number; pageCount: number };
  totalLabel: string;
  hrefForPage: (page: number) => string;
};

/** A mirrored list's page: header, filters, table and pagination, kept live. */
export function ListPageLayout({
  liveKinds,
  header,
  filters,
  children,
  result,
  totalLabel,
  hrefForPage,
}: TListPageLayoutProps) {
  return (
    <div className="grid gap-6">
      <LiveRefresh kinds={liveKinds} />
      {header}
      {filters}
      {children}
      <DataTablePagination
        rowCount={result.rows.length}
        totalLabel={totalLabel}
        page={result.page}
        pageCount={result.pageCount}
        hrefForPage={hrefForPage}
      />
    </div>
  );
}
