"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { ClippedTextCell } from "@/components/data-table/clipped-text-cell";
import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import { ResourceStatusBadge } from "@/components/resource-status-badge";
import type { TPaymentLinkListRow } from "@/lib/links/types";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";

const column = createDataTableColumnHelper<TPaymentLinkListRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("links.list.columns");
  return <>{t(name)}</>;
}

function InstallmentsUpTo({ count }: { count: number }) {
  const t = useTranslations("links.list");
  return <span className="text-xs text-muted-foreground">{t("installmentsUpTo", { count })}</span>;
}

function MethodName({ code }: { code: number | null }) {
  const t = useTranslations("links.methods");
  if (code === null) return <span className="text-muted-foreground">—</span>;
  return <>{t.has(String(code)) ? t(String(code)) : code}</>;
}

// Sort keys are the list filter's `sort` values (lib/links/schemas.ts, paymentLinkSortColumns).
const columns: TDataTableColumn<TPaymentLinkListRow>[] = [
  column.accessor("createdAt", {
    header: () => <Header name="createdAt" />,
    cell: (info) => (
      <Link
        href={`/links/${info.row.original.linkPaymentUuid}`}
        className="text-primary underline-offset-4 hover:underline"
      >
        <DateTime value={info.getValue()} />
      </Link>
    ),
    meta: { sortKey: "creationDate" },
  }),
  column.accessor("payerName", {
    header: () => <Header name="payer" />,
    cell: ({ row }) => (
      <div className="flex flex-col">
        <span className="max-w-48 truncate">{row.original.payerName}</span>
        <span className="text-xs whitespace-nowrap text-muted-foreground tabular-nums">
          {row.original.isForeignPayer ? row.original.payerDocument : formatCpfOrCnpj(row.original.payerDocument)}
        </span>
      </div>
    ),
    meta: { sortKey: "payerName", firstSortOrder: "asc" },
  }),
  column.accessor("userReference", {
    header: () => <Header name="reference" />,
    cell: (info) => <ClippedTextCell text={info.getValue()} className="max-w-40" />,
  }),
  column.accessor("amountCents", {
    header: () => <Header name="amount" />,
    cell: ({ row }) => (
      <div className="flex flex-col items-end">
        <Money cents={row.original.amountCents} />
        {row.original.installments > 1 ? <InstallmentsUpTo count={row.original.installments} /> : null}
      </div>
    ),
    meta: { sortKey: "amount", className: "text-right" },
  }),
  column.accessor("statusCode", {
    header: () => <Header name="status" />,
    cell: (info) => <ResourceStatusBadge resource="paymentLink" status={info.getValue()} />,
    meta: { sortKey: "status", firstSortOrder: "asc" },
  }),
  column.accessor("paidMethodCode", {
    header: () => <Header name="method" />,
    cell: (info) => <MethodName code={info.getValue()} />,
  }),
  column.accessor("paymentReceipt", {
    header: () => <Header name="receipt" />,
    cell: (info) => <span className="font-mono text-xs">{info.getValue() ?? "—"}</span>,
  }),
  column.accessor("expiresAt", {
    header: () => <Header name="expiresAt" />,
    cell: (info) => <DateTime value={info.getValue()} />,
    meta: { sortKey: "expiresAt" },
  }),
];

export function PaymentLinksTable({ rows, empty }: { rows: TPaymentLinkListRow[]; empty: ReactNode }) {
  const t = useTranslations("links.list");
  return (
    <DataTable
      columns={columns}
      data={rows}
      getRowId={(row) => row.linkPaymentUuid}
      empty={empty}
      caption={t("caption")}
    />
  );
}
