"use client";

import { ArrowDownIcon, ArrowUpDownIcon, ArrowUpIcon } from "lucide-react";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { TableHead } from "@/components/ui/table";
import { cn } from "@/lib/utils";

import { buildSortHref, defaultSortParamNames, readSort, type SortOrder, type SortParamNames } from "./sort-params";

type SortableTableHeadProps = {
  /** The value written to the `sort` URL parameter; the page's search-param schema must accept it. */
  column: string;
  children: ReactNode;
  /** Order of the first click: newest or largest first suits dates and amounts. */
  firstOrder?: SortOrder;
  paramNames?: SortParamNames;
  className?: string;
};

/**
 * A column header that sorts through the URL (`?sort=…&order=…`), so the server renders the
 * sorted list and the order survives reload and sharing. The header carries `aria-sort`.
 */
export function SortableTableHead({
  column,
  children,
  firstOrder = "desc",
  paramNames = defaultSortParamNames,
  className,
}: SortableTableHeadProps) {
  const t = useTranslations("common.table");
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const params = new URLSearchParams(searchParams.toString());
  const current = readSort(params, paramNames);
  const order = current?.column === column ? current.order : null;
  const nextOrder: SortOrder = order ? (order === "asc" ? "desc" : "asc") : firstOrder;
  const Icon = order === "asc" ? ArrowUpIcon : order === "desc" ? ArrowDownIcon : ArrowUpDownIcon;

  return (
    <TableHead
      aria-sort={order === "asc" ? "ascending" : order === "desc" ? "descending" : "none"}
      className={className}
    >
      <Link
        href={buildSortHref(pathname, params, column, firstOrder, paramNames)}
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
