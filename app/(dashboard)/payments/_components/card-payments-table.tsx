"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { ClippedTextCell } from "@/components/data-table/clipped-text-cell";
import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import { ResourceStatusBadge } from "@/components/resource-status-badge";
import type { TCardPaymentListRow } from "@/lib/card-payments/types";
import { brandFromBandeiraCartao, CARD_BRAND_NAMES } from "@/lib/shared/card";

const column = createDataTableColumnHelper<TCardPaymentListRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("cardPayments.list.columns");
  return <>{t(name)}</>;
}

function brandName(code: string | null): string | null {
  if (!code) return null;
  const brand = brandFromBandeiraCartao(code);
  return brand ? CARD_BRAND_NAMES[brand] : code;
}

// BIN and last four are known only for payments this app made (the gateway's answer carries neither).
function CardCell({ row }: { row: TCardPaymentListRow }) {
  const brand = brandName(row.brandCode);
  if (!brand && !row.cardLastFour) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="whitespace-nowrap">
      {brand}
      {row.cardLastFour ? <span className="ml-1 font-mono text-xs">•••• {row.cardLastFour}</span> : null}
    </span>
  );
}

function TypeCell({ row }: { row: TCardPaymentListRow }) {
  const t = useTranslations("cardPayments");
  const type = row.paymentType && t.has(`paymentType.${row.paymentType}`) ? t(`paymentType.${row.paymentType}`) : null;
  // Each part whole; a narrow column puts the installments under the type.
  return (
    <span>
      <span className="whitespace-nowrap">{type ?? row.paymentType ?? "—"}</span>{" "}
      <span className="whitespace-nowrap text-muted-foreground">
        · {t("list.installments", { count: row.installmentCount })}
      </span>
    </span>
  );
}

function OriginCell({ origin }: { origin: TCardPaymentListRow["origin"] }) {
  const t = useTranslations("cardPayments.origin");
  return <span className="whitespace-nowrap">{t(origin)}</span>;
}

// Sort keys are the list filter's `sort` values (lib/card-payments/schemas.ts, cardPaymentSortColumns).
const columns: TDataTableColumn<TCardPaymentListRow>[] = [
  column.accessor("occurredAt", {
    header: () => <Header name="date" />,
    cell: ({ row }) => (
      <Link href={`/payments/${row.original.id}`} className="text-primary underline-offset-4 hover:underline">
        <DateTime value={row.original.occurredAt} />
      </Link>
    ),
    meta: { sortKey: "date" },
  }),
  column.accessor("amountCents", {
    header: () => <Header name="amount" />,
    cell: (info) => <Money cents={info.getValue()} />,
    meta: { sortKey: "amount", className: "text-right" },
  }),
  column.accessor("statusKind", {
    header: () => <Header name="status" />,
    cell: ({ row }) => (
      <ResourceStatusBadge resource="cardPayment" status={row.original.statusKind} label={row.original.status} />
    ),
  }),
  column.accessor("cardLastFour", {
    header: () => <Header name="card" />,
    cell: ({ row }) => <CardCell row={row.original} />,
  }),
  column.accessor("paymentType", {
    header: () => <Header name="type" />,
    cell: ({ row }) => <TypeCell row={row.original} />,
  }),
  column.accessor("orderId", {
    header: () => <Header name="orderId" />,
    cell: (info) => <ClippedTextCell text={info.getValue()} className="max-w-32 font-mono text-xs" />,
  }),
  column.accessor("origin", {
    header: () => <Header name="origin" />,
    cell: (info) => <OriginCell origin={info.getValue()} />,
  }),
];

export function CardPaymentsTable({ rows, empty }: { rows: TCardPaymentListRow[]; empty: ReactNode }) {
  const t = useTranslations("cardPayments.list");
  return <DataTable columns={columns} data={rows} getRowId={(row) => row.id} empty={empty} caption={t("caption")} />;
}
