"use client";

import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from "lucide-react";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useQueryStates } from "nuqs";
import type { ReactNode } from "react";

import { TableHead } from "@/components/ui/table";
import type { TSortOrder } from "@/lib/list/schemas";
import { buildSortHref, nextSortOrder, sortSearchParams } from "@/lib/list/search-params";
import { cn } from "@/lib/utils";

type SortableTableHeadProps = {
  /** The value written to the `sort` URL parameter; the page's search-param schema must accept it. */
  column: string;
  children: ReactNode;
  /** Order of the first click: newest or largest first suits dates and amounts. */
  firstOrder?: TSortOrder;
  className?: string;
};

/**
 * A column header that sorts through the URL (`?sort=…&order=…`), so the server renders the
 * sorted list and the order survives reload and sharing. The header carries `aria-sort`.
 */
export function SortableTableHead({ column, children, firstOrder = "desc", className }: SortableTableHeadProps) {
  const t = useTranslations("common.table");
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [current] = useQueryStates(sortSearchParams);
  const sorted = current.sort ? { column: current.sort, order: current.order ?? "desc" } : null;
  const order = sorted?.column === column ? sorted.order : null;
  const nextOrder = nextSortOrder(sorted, column, firstOrder);
  const Icon = order === "asc" ? ArrowUpIcon : order === "desc" ? ArrowDownIcon : ArrowUpDownIcon;

  return (
    <TableHead
      aria-sort={order === "asc" ? "ascending" : order === "desc" ? "descending" : "none"}
      className={className}
    >
      <Link
        href={buildSortHref(pathname, new URLSearchParams(searchParams.toString()), column, nextOrder)}
        scroll={false}
        title={t(nextOrder === "asc" ? "sortAscending" : "sortDescending")}
        className={cn(
          "-mx-1 inline-flex items-center gap-1 rounded-sm px-1 uppercase outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring",
          order && "text-foreground",
        )}
      >
        {children}
        <Icon className={cn("size-3.5", !order && "opacity-50")} aria-hidden="true" />
      </Link>
    </TableHead>
  );
}
