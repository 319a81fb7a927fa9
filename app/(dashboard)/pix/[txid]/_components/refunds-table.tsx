"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { ClippedTextCell } from "@/components/data-table/clipped-text-cell";
import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import { PixRefundStatusCell } from "@/components/pix-refund-status-cell";
import type { TPixRefundView } from "@/lib/pix/types";

type TRefundRow = TPixRefundView;

const column = createDataTableColumnHelper<TRefundRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("pix.refunds.columns");
  return <>{t(name)}</>;
}

const columns: TDataTableColumn<TRefundRow>[] = [
  column.accessor("createdAt", {
    header: () => <Header name="createdAt" />,
    cell: (info) => <DateTime value={info.getValue()} />,
  }),
  column.accessor("amountCents", {
    id: "amount",
    header: () => <Header name="amount" />,
    cell: (info) => <Money cents={info.getValue()} />,
    meta: { className: "text-right" },
  }),
  column.accessor("statusCode", {
    id: "status",
    header: () => <Header name="status" />,
    cell: ({ row: { original: refund } }) => (
      <PixRefundStatusCell
        statusCode={refund.statusCode}
        statusDescription={refund.statusDescription}
        statusReason={refund.statusReason}
      />
    ),
  }),
  column.accessor("description", {
    header: () => <Header name="description" />,
    cell: (info) => <ClippedTextCell text={info.getValue()} />,
    meta: { card: "wide" },
  }),
  column.accessor("settledAt", {
    header: () => <Header name="settledAt" />,
    cell: (info) => {
      const settledAt = info.getValue();
      return settledAt ? <DateTime value={settledAt} /> : "—";
    },
  }),
  column.accessor("refundEndToEnd", {
    header: () => <Header name="refundEndToEnd" />,
    cell: (info) => <span className="font-mono text-xs break-all">{info.getValue() ?? "—"}</span>,
    meta: { card: "wide" },
  }),
];

/** The charge's refunds so far. */
export function RefundsTable({ rows, empty }: { rows: TRefundRow[]; empty: ReactNode }) {
  const t = useTranslations("pix.refunds");
  return (
    <DataTable columns={columns} data={rows} getRowId={(row) => row.pixRefundId} empty={empty} caption={t("caption")} />
  );
}
