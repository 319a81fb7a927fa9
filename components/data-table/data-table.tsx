"use client";

import { type ColumnDef, createColumnHelper, type RowData, tableFeatures, useTable } from "@tanstack/react-table";
import type { ReactNode } from "react";

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { TSortOrder } from "@/lib/list/schemas";
import { SortableTableHead } from "./sortable-table-head";

export type TDataTableColumnMeta = {
  /** Makes the header a sort link writing `?sort=<sortKey>`; the server does the sorting. */
  sortKey?: string;
  firstSortOrder?: TSortOrder;
  /** Classes for the column's header and cells (`text-right` for amounts). */
  className?: string;
};

// Rows arrive already filtered, sorted and paged by the server (from the URL), so the table
// needs only the core features; TanStack Table supplies typed columns and cell rendering.
export const dataTableFeatures = tableFeatures({ columnMeta: {} as TDataTableColumnMeta });
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

export function DataTable<TData extends RowData>({ columns, data, getRowId, empty, caption }: DataTableProps<TData>) {
  const table = useTable({ features: dataTableFeatures, columns, data, getRowId });
  const rows = table.getRowModel().rows;
  if (rows.length === 0) return <>{empty}</>;

  return (
    <Table>
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <TableHeader>
        {table.getHeaderGroups().map((group) => (
          <TableRow key={group.id}>
            {group.headers.map((header) => {
              const meta = header.column.columnDef.meta;
              const content = header.isPlaceholder ? null : <table.FlexRender key={header.id} header={header} />;
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
          <TableRow key={row.id}>
            {row.getAllCells().map((cell) => (
              <TableCell key={cell.id} className={cell.column.columnDef.meta?.className}>
                <table.FlexRender cell={cell} />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
