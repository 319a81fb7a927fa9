"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { ClippedTextCell } from "@/components/data-table/clipped-text-cell";
import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import { ResourceStatusBadge } from "@/components/resource-status-badge";
import type { TPixChargeListRow } from "@/lib/pix/types";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";

const column = createDataTableColumnHelper<TPixChargeListRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("pix.list.columns");
  return <>{t(name)}</>;
}

const awaitingStatuses = new Set(["CREATED", "ACTIVE"]);
const paidStatuses = new Set(["PAID", "PARTIALLY REFUNDED", "REFUNDED"]);

/** The expiry only while it still matters: a paid or cancelled charge says so, an expired one says when. */
function ExpiryCell({ row }: { row: TPixChargeListRow }) {
  const t = useTranslations("pix.list.expiry");
  const date = () => <DateTime value={row.expiresAt} />;
  if (awaitingStatuses.has(row.status)) {
    // The mirror may not have heard of the expiry yet: past is past.
    const isPast = Date.parse(row.expiresAt) <= Date.now();
    return <span>{t.rich(isPast ? "overdue" : "awaiting", { date })}</span>;
  }
  if (row.status === "EXPIRED") return <span className="text-muted-foreground">{t.rich("expired", { date })}</span>;
  if (paidStatuses.has(row.status)) return <span className="text-muted-foreground">{t("paid")}</span>;
  if (row.status === "Cancelada") return <span className="text-muted-foreground">{t("cancelled")}</span>;
  return <DateTime value={row.expiresAt} />;
}

// Sort keys are the list filter's `sort` values (lib/pix/schemas.ts, pixChargeSortColumns).
const columns: TDataTableColumn<TPixChargeListRow>[] = [
  column.accessor("createdAt", {
    header: () => <Header name="createdAt" />,
    cell: (info) => <DateTime value={info.getValue()} />,
    meta: { sortKey: "creationDate" },
  }),
  column.accessor("txid", {
    header: () => <Header name="txid" />,
    cell: (info) => (
      // Cut visually only: the link's accessible name stays the whole txid.
      <Link
        href={`/pix/${info.getValue()}`}
        title={info.getValue()}
        className="block max-w-20 truncate font-mono text-xs text-primary underline-offset-4 hover:underline max-md:max-w-full"
      >
        {info.getValue()}
      </Link>
    ),
    meta: { sortKey: "txid", firstSortOrder: "asc", card: "title" },
  }),
  column.accessor("debtorName", {
    header: () => <Header name="debtor" />,
    cell: ({ row }) =>
      row.original.debtorName ? (
        <div className="flex flex-col">
          <ClippedTextCell text={row.original.debtorName} className="max-w-36" />
          {row.original.debtorDocument ? (
            <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">
              {formatCpfOrCnpj(row.original.debtorDocument)}
            </span>
          ) : null}
        </div>
      ) : (
        <span className="text-muted-foreground">—</span>
      ),
  }),
  column.accessor("userReference", {
    header: () => <Header name="reference" />,
    cell: (info) => <ClippedTextCell text={info.getValue()} className="max-w-24" />,
  }),
  column.accessor("amountCents", {
    header: () => <Header name="amount" />,
    cell: (info) => <Money cents={info.getValue()} />,
    meta: { sortKey: "amount", className: "text-right" },
  }),
  column.accessor("status", {
    header: () => <Header name="status" />,
    cell: (info) => <ResourceStatusBadge resource="pixCharge" status={info.getValue()} />,
    meta: { sortKey: "status", firstSortOrder: "asc" },
  }),
  column.accessor("expiresAt", {
    header: () => <Header name="expiresAt" />,
    cell: ({ row }) => <ExpiryCell row={row.original} />,
    meta: { sortKey: "expirationDate" },
  }),
];

export function PixChargesTable({ rows, empty }: { rows: TPixChargeListRow[]; empty: ReactNode }) {
  const t = useTranslations("pix.list");
  return <DataTable columns={columns} data={rows} getRowId={(row) => row.txid} empty={empty} caption={t("caption")} />;
}
