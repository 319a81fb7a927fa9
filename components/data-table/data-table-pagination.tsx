import { useTranslations } from "next-intl";

import { Pagination } from "@/components/ui/pagination";
import { listCountCap } from "@/lib/list/query";

type DataTablePaginationProps = {
  /** Rows on this page: nothing is shown under an empty list (its empty state says it all). */
  rowCount: number;
  /** "N in all", worded by the list. */
  totalLabel: string;
  /** The amount of every row the filters select, beside the count. */
  totalAmountLabel?: string;
  /** More rows match than the list counts (lib/list/query.ts): "more than 10,000" instead of `totalLabel`. */
  isTotalCapped?: boolean;
  /** More rows follow than the numbered pages hold (a list paged by cursor). */
  hasMorePages?: boolean;
  page: number;
  pageCount: number;
  hrefForPage: (page: number) => string;
  cursors?: { previous: string | null; next: string | null };
  hrefForCursor?: (cursor: string) => string;
};

/** Under a list: the total and the page links. */
export function DataTablePagination({
  rowCount,
  totalLabel,
  totalAmountLabel,
  isTotalCapped,
  hasMorePages,
  page,
  pageCount,
  hrefForPage,
  cursors,
  hrefForCursor,
}: DataTablePaginationProps) {
  const t = useTranslations("common.table");
  if (rowCount === 0) return null;
  return (
    <div className="flex flex-col items-center gap-3 sm:flex-row sm:justify-between">
      <p className="text-sm text-muted-foreground">
        {isTotalCapped ? t("totalCapped", { count: listCountCap }) : totalLabel}
        {totalAmountLabel ? <span className="tabular-nums"> · {totalAmountLabel}</span> : null}
      </p>
      <Pagination
        page={page}
        pageCount={pageCount}
        hrefForPage={hrefForPage}
        cursors={cursors}
        hrefForCursor={hrefForCursor}
        hasMorePages={hasMorePages}
      />
    </div>
  );
}
