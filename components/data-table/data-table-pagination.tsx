import { Pagination } from "@/components/ui/pagination";

type DataTablePaginationProps = {
  /** Rows on this page: nothing is shown under an empty list (its empty state says it all). */
  rowCount: number;
  /** "N in all", worded by the list. */
  totalLabel: string;
  /** The amount of every row the filters select, beside the count. */
  totalAmountLabel?: string;
  page: number;
  pageCount: number;
  hrefForPage: (page: number) => string;
};

/** Under a list: the total and the page links. */
export function DataTablePagination({
  rowCount,
  totalLabel,
  totalAmountLabel,
  page,
  pageCount,
  hrefForPage,
}: DataTablePaginationProps) {
  if (rowCount === 0) return null;
  return (
    <div className="flex flex-col items-center gap-3 sm:flex-row sm:justify-between">
      <p className="text-sm text-muted-foreground">
        {totalLabel}
        {totalAmountLabel ? <span className="tabular-nums"> · {totalAmountLabel}</span> : null}
      </p>
      <Pagination page={page} pageCount={pageCount} hrefForPage={hrefForPage} />
    </div>
  );
}
