import type { ReactNode } from "react";

import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";

type TColumn = { header: string; isNumeric?: boolean };
type TRow = { key: string; cells: ReactNode[] };

/** Cards on a phone, a table from md up (no sideways scroll at 390 px); the first cell names the row. */
export function FigureTable({ label, columns, rows }: { label: string; columns: TColumn[]; rows: TRow[] }) {
  return (
    <>
      <ul className="grid gap-3 md:hidden" aria-label={label}>
        {rows.map((row) => (
          <li key={row.key} className="grid min-w-0 gap-2 rounded-md border p-3">
            <div className="break-all font-mono text-xs">{row.cells[0]}</div>
            <dl className="grid grid-cols-2 gap-2">
              {columns.slice(1).map((column, index) => (
                <div key={column.header} className="grid min-w-0 gap-0.5">
                  <dt className="text-xs text-muted-foreground">{column.header}</dt>
                  <dd className="min-w-0 break-words text-sm">{row.cells[index + 1]}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <div className="hidden md:block">
        <Table aria-label={label}>
          <TableHeader>
            <TableRow>
              {columns.map((column) => (
                <TableHead key={column.header} className={cn(column.isNumeric && "text-right")}>
                  {column.header}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.key}>
                {columns.map((column, index) => (
                  <TableCell
                    key={column.header}
                    className={cn(
                      index === 0 && "max-w-56 break-all font-mono text-xs",
                      column.isNumeric && "text-right",
                    )}
                  >
                    {row.cells[index]}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </>
  );
}
