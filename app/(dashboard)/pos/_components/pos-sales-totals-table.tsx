"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { Money } from "@/components/money";
import type { TPosSaleTotal } from "@/lib/pos/sales";

const column = createDataTableColumnHelper<TPosSaleTotal>();

function Header({ name }: { name: string }) {
  const t = useTranslations("pos.sales");
  return <>{t(name)}</>;
}

function columnsFor(keyHeader: string): TDataTableColumn<TPosSaleTotal>[] {
  return [
    column.accessor("key", {
      header: () => <Header name={keyHeader} />,
      cell: (info) => <span className="font-mono text-xs max-md:break-all">{info.getValue()}</span>,
    }),
    column.accessor("approvedCount", {
      id: "count",
      header: () => <Header name="totals.count" />,
      cell: ({ row: { original: total } }) => (
        <>
          {total.approvedCount}/{total.count}
        </>
      ),
      meta: { className: "text-right tabular-nums" },
    }),
    column.accessor("approvedCents", {
      id: "approved",
      header: () => <Header name="totals.approved" />,
      cell: (info) => <Money cents={info.getValue()} />,
      meta: { className: "text-right" },
    }),
  ];
}

// One list per grouping, at module scope so the tables are not rebuilt every render.
const columnsByGrouping = { day: columnsFor("totals.day"), pos: columnsFor("columns.pos") };

type PosSalesTotalsTableProps = {
  grouping: keyof typeof columnsByGrouping;
  rows: TPosSaleTotal[];
  caption: string;
  empty: ReactNode;
};

/** The period's sales added up by day or by POS. */
export function PosSalesTotalsTable({ grouping, rows, caption, empty }: PosSalesTotalsTableProps) {
  return (
    <DataTable
      columns={columnsByGrouping[grouping]}
      data={rows}
      getRowId={(row) => row.key}
      empty={empty}
      caption={caption}
    />
  );
}
