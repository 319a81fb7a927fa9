"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import type { TCustomerViewRow } from "@/lib/customers/types";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";

const column = createDataTableColumnHelper<TCustomerViewRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("customers.columns");
  return <>{t(name)}</>;
}

function CustomerName({ row }: { row: TCustomerViewRow }) {
  const t = useTranslations("customers");
  return (
    <Link href={row.href} className="text-primary underline-offset-4 hover:underline">
      {row.name ?? t("unnamed")}
    </Link>
  );
}

// Sort keys are the filter's `sort` values (lib/customers/schemas.ts, customerSortColumns).
const columns: TDataTableColumn<TCustomerViewRow>[] = [
  column.accessor("name", {
    header: () => <Header name="name" />,
    cell: ({ row }) => <CustomerName row={row.original} />,
    meta: { card: "title" },
  }),
  column.accessor("document", {
    header: () => <Header name="document" />,
    cell: (info) => <span className="font-mono text-xs whitespace-nowrap">{formatCpfOrCnpj(info.getValue())}</span>,
  }),
  column.accessor("paymentCount", {
    header: () => <Header name="count" />,
    cell: (info) => <span className="tabular-nums">{info.getValue()}</span>,
    meta: { sortKey: "count", className: "text-right" },
  }),
  column.accessor("totalPaidCents", {
    header: () => <Header name="total" />,
    cell: (info) => <Money cents={info.getValue()} />,
    meta: { sortKey: "total", className: "text-right" },
  }),
  column.accessor("lastPaidAt", {
    header: () => <Header name="lastPaid" />,
    cell: (info) => <DateTime value={info.getValue()} />,
    meta: { sortKey: "lastPaid" },
  }),
];

export function CustomersTable({ rows, empty }: { rows: TCustomerViewRow[]; empty: ReactNode }) {
  const t = useTranslations("customers");
  return <DataTable columns={columns} data={rows} getRowId={(row) => row.href} empty={empty} caption={t("caption")} />;
}
