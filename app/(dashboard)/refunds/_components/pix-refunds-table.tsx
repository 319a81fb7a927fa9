"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { ClippedTextCell } from "@/components/data-table/clipped-text-cell";
import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import { PixRefundStatusCell } from "@/components/pix-refund-status-cell";
import type { TPixRefundListRow } from "@/lib/pix/types";
import { RefreshRefundButton } from "./refresh-refund-button";

const column = createDataTableColumnHelper<TPixRefundListRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("refunds.columns");
  return <>{t(name)}</>;
}

// Sort keys are the list filter's `sort` values (lib/pix/schemas.ts, pixRefundSortColumns).
const columns: TDataTableColumn<TPixRefundListRow>[] = [
  column.accessor("createdAt", {
    header: () => <Header name="createdAt" />,
    cell: (info) => <DateTime value={info.getValue()} />,
    meta: { sortKey: "creationDate" },
  }),
  column.accessor("txid", {
    header: () => <Header name="txid" />,
    cell: (info) => (
      <Link
        href={`/pix/${info.getValue()}`}
        className="font-mono text-xs text-primary underline-offset-4 hover:underline"
      >
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor("amountCents", {
    header: () => <Header name="amount" />,
    cell: (info) => <Money cents={info.getValue()} />,
    meta: { sortKey: "amount", className: "text-right" },
  }),
  column.accessor("statusCode", {
    header: () => <Header name="status" />,
    cell: ({ row: { original: refund } }) => (
      <PixRefundStatusCell
        statusCode={refund.statusCode}
        statusDescription={refund.statusDescription}
        statusReason={refund.statusReason}
      />
    ),
    meta: { sortKey: "statusCode", firstSortOrder: "asc" },
  }),
  column.accessor("description", {
    header: () => <Header name="description" />,
    cell: (info) => <ClippedTextCell text={info.getValue()} />,
  }),
  column.accessor("settledAt", {
    header: () => <Header name="settledAt" />,
    cell: (info) => {
      const value = info.getValue();
      return value ? <DateTime value={value} /> : "—";
    },
    meta: { sortKey: "settlementDate" },
  }),
  column.accessor("refundEndToEnd", {
    header: () => <Header name="refundEndToEnd" />,
    cell: (info) => <span className="font-mono text-xs break-all">{info.getValue() ?? "—"}</span>,
  }),
  column.display({
    id: "refresh",
    header: () => <Header name="refresh" />,
    cell: ({ row: { original: refund } }) => <RefreshRefundButton pixRefundId={refund.pixRefundId} />,
  }),
];

export function PixRefundsTable({ rows, empty }: { rows: TPixRefundListRow[]; empty: ReactNode }) {
  const t = useTranslations("refunds");
  return (
    <DataTable columns={columns} data={rows} getRowId={(row) => row.pixRefundId} empty={empty} caption={t("caption")} />
  );
}
