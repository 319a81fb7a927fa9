"use client";

import { type ColumnDef, createColumnHelper, type RowData, tableFeatures, useTable } from "@tanstack/react-table";
import type { ReactNode } from "react";

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { TSortOrder } from "@/lib/list/schemas";
import { cn } from "@/lib/utils";
import { SortableTableHead } from "./sortable-table-head";

type TDataTableColumnMeta = {
  /** Makes the header a sort link writing `?sort=<sortKey>`; the server does the sorting. */
  sortKey?: string;
  firstSortOrder?: TSortOrder;
  /** Classes for the column's header and cells (`text-right` for amounts). */
  className?: string;
  /**
   * On narrow screens each row is a card of label/value pairs in two columns: "wide" takes the whole width
   * (a URL, a txid), "title" also drops the label and leads the card; "actions" sits in the card's corner.
   */
  card?: "wide" | "title" | "actions";
  /** The header is for screen readers only (a column of row buttons: "Actions" above them says nothing new). */
  isHeaderVisuallyHidden?: boolean;
};

// Rows arrive already filtered, sorted and paged by the server (from the URL), so the table
// needs only the core features; TanStack Table supplies typed columns and cell rendering.
const dataTableFeatures = tableFeatures({ columnMeta: {} as TDataTableColumnMeta });
export type TDataTableFeatures = typeof dataTableFeatures;
// One list mixes columns of strings, numbers and dates, so the value type is left open.
// biome-ignore lint/suspicious/noExplicitAny: TanStack's ColumnDef is invariant in its value type
export type TDataTableColumn<TData extends RowData> = ColumnDef<TDataTableFeatures, TData, any>;

/** Column helper for a list: `const column = createDataTableColumnHelper<Charge>()`. */
export function createDataTableColumnHelper<TData extends RowData>() {
  return createColumnHelper<TDataTableFeatures, TData>();
}

type DataTableProps<TData extends RowData> = {
  /** Define at module scope (not inside a component), so the table is not rebuilt every render. */
  columns: TDataTableColumn<TData>[];
  data: TData[];
  /** Stable id of a row (txid, uuid) instead of its index. */
  getRowId?: (row: TData) => string;
  /** Shown instead of the table when there are no rows: an EmptyState that says what to do. */
  empty: ReactNode;
  caption?: ReactNode;
};

// Below `md` the table turns into cards with CSS only (same DOM, so the semantics and the text stay one copy):
// the header row is hidden and every cell repeats its column's label, which only shows there.
const cardTableClassName =
  "max-md:block max-md:[&_tbody]:grid max-md:[&_tbody]:gap-3 max-md:[&_tbody_tr:last-child]:border";
const cardHeaderClassName = "max-md:sr-only";
const cardRowClassName =
  "max-md:relative max-md:grid max-md:grid-cols-2 max-md:gap-x-3 max-md:gap-y-2 max-md:rounded-md max-md:border max-md:p-3 max-md:hover:bg-transparent";
const cardCellClassNames = {
  // A date may wrap after its comma, and a status badge between its words, in a half-width cell ("Aguardando
  // pagamento" is wider than half a phone; a card nested in another is narrower still).
  default:
    "max-md:min-w-0 max-md:p-0 max-md:text-left max-md:break-words max-md:[&_time]:whitespace-normal max-md:[&_[data-slot=badge]]:whitespace-normal",
  wide: "max-md:col-span-2 max-md:min-w-0 max-md:p-0 max-md:text-left max-md:break-words",
  title:
    "max-md:order-first max-md:col-span-2 max-md:min-w-0 max-md:p-0 max-md:pr-10 max-md:font-medium max-md:break-words",
  actions: "max-md:absolute max-md:top-2 max-md:right-2 max-md:p-0",
} as const;

export function DataTable<TData extends RowData>({ columns, data, getRowId, empty, caption }: DataTableProps<TData>) {
  const table = useTable({ features: dataTableFeatures, columns, data, getRowId });
  const rows = table.getRowModel().rows;
  if (rows.length === 0) return <>{empty}</>;
  const headerOf = new Map(table.getFlatHeaders().map((header) => [header.column.id, header]));

  return (
    <Table className={cardTableClassName} containerClassName="max-md:overflow-visible max-md:border-0">
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <TableHeader className={cardHeaderClassName}>
        {table.getHeaderGroups().map((group) => (
          <TableRow key={group.id}>
            {group.headers.map((header) => {
              const meta = header.column.columnDef.meta;
              const rendered = header.isPlaceholder ? null : <table.FlexRender key={header.id} header={header} />;
              const content = meta?.isHeaderVisuallyHidden ? (
                <span key={header.id} className="sr-only">
                  {rendered}
                </span>
              ) : (
                rendered
              );
              return meta?.sortKey ? (
                <SortableTableHead
                  key={header.id}
                  column={meta.sortKey}
                  firstOrder={meta.firstSortOrder}
                  className={meta.className}
                >
                  {content}
                </SortableTableHead>
              ) : (
                <TableHead key={header.id} className={meta?.className}>
                  {content}
                </TableHead>
              );
            })}
          </TableRow>
        ))}
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id} className={cardRowClassName}>
            {row.getAllCells().map((cell) => {
              const meta = cell.column.columnDef.meta;
              const header = headerOf.get(cell.column.id);
              const hasLabel =
                header && meta?.card !== "title" && meta?.card !== "actions" && !meta?.isHeaderVisuallyHidden;
              return (
                <TableCell key={cell.id} className={cn(meta?.className, cardCellClassNames[meta?.card ?? "default"])}>
                  {hasLabel ? (
                    // Hidden from assistive technology: the column header already names the cell.
                    <span
                      aria-hidden="true"
                      className="mb-0.5 block text-xs font-medium text-muted-foreground uppercase md:hidden"
                    >
                      <table.FlexRender header={header} />
                    </span>
                  ) : null}
                  <table.FlexRender cell={cell} />
                </TableCell>
              );
            })}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
