"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import type { TUnreportedCardPayment } from "@/lib/pos/match";

const column = createDataTableColumnHelper<TUnreportedCardPayment>();

function Header({ name }: { name: string }) {
  const t = useTranslations("pos.sales");
  return <>{t(name)}</>;
}

/** Ids and codes: monospace in the cell only, so a phone card's label keeps the label font. */
function Code({ children }: { children: ReactNode }) {
  return <span className="font-mono text-xs max-md:break-all">{children}</span>;
}

const columns: TDataTableColumn<TUnreportedCardPayment>[] = [
  column.accessor("occurredAt", {
    header: () => <Header name="columns.occurredAt" />,
    cell: (info) => <DateTime value={info.getValue()} />,
  }),
  column.accessor("amountCents", {
    id: "amount",
    header: () => <Header name="columns.amount" />,
    cell: (info) => <Money cents={info.getValue()} />,
  }),
  column.accessor("brandCode", {
    id: "brand",
    header: () => <Header name="columns.brand" />,
    cell: (info) => info.getValue() ?? "—",
    meta: { className: "text-xs" },
  }),
  column.accessor("authorizationNumber", {
    id: "authorization",
    header: () => <Header name="columns.authorization" />,
    cell: (info) => <Code>{info.getValue() ?? "—"}</Code>,
  }),
  column.display({
    id: "nsu",
    header: () => <Header name="unreported.nsu" />,
    cell: ({ row: { original: payment } }) => (
      <Code>
        {payment.hostUsn ?? "—"} / {payment.gatewayUsn ?? "—"}
      </Code>
    ),
  }),
  column.accessor("origin", {
    header: () => <Header name="unreported.origin" />,
    meta: { className: "text-xs" },
  }),
];

/** Approved card payments at the gateway that no POS reported. */
export function PosUnreportedTable({ rows, empty }: { rows: TUnreportedCardPayment[]; empty: ReactNode }) {
  const t = useTranslations("pos.sales.unreported");
  return <DataTable columns={columns} data={rows} getRowId={(row) => row.id} empty={empty} caption={t("title")} />;
}
