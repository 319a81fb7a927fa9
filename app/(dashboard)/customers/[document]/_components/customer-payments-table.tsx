"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";

import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import { ResourceStatusBadge } from "@/components/resource-status-badge";
import type { TCustomerPayment } from "@/lib/customers/types";
import { paymentLinkStatusCodes } from "@/lib/links/types";

const column = createDataTableColumnHelper<TCustomerPayment>();

function Header({ name }: { name: string }) {
  const t = useTranslations("customers.detail.columns");
  return <>{t(name)}</>;
}

function PaymentKind({ payment }: { payment: TCustomerPayment }) {
  const t = useTranslations("customers.detail");
  return (
    <div className="flex flex-col gap-1">
      <span>{t(`kinds.${payment.kind}`)}</span>
      {payment.kind === "pix" && payment.linkPaymentUuid ? (
        <Link
          href={`/links/${payment.linkPaymentUuid}`}
          className="text-xs text-primary underline-offset-4 hover:underline"
        >
          {t("viaLink")}
        </Link>
      ) : null}
    </div>
  );
}

const columns: TDataTableColumn<TCustomerPayment>[] = [
  column.accessor("paidAt", {
    header: () => <Header name="paidAt" />,
    cell: (info) => <DateTime value={info.getValue()} />,
  }),
  column.accessor("id", {
    header: () => <Header name="id" />,
    cell: ({ row }) => (
      <Link
        href={row.original.kind === "pix" ? `/pix/${row.original.id}` : `/links/${row.original.id}`}
        className="font-mono text-xs break-all text-primary underline-offset-4 hover:underline"
      >
        {row.original.id}
      </Link>
    ),
    meta: { card: "wide" },
  }),
  column.accessor("kind", {
    header: () => <Header name="kind" />,
    cell: ({ row }) => <PaymentKind payment={row.original} />,
  }),
  column.accessor("amountCents", {
    header: () => <Header name="amount" />,
    cell: (info) => <Money cents={info.getValue()} />,
    meta: { className: "text-right" },
  }),
  column.accessor("status", {
    header: () => <Header name="status" />,
    cell: ({ row }) =>
      row.original.kind === "pix" ? (
        <ResourceStatusBadge resource="pixCharge" status={row.original.status} />
      ) : (
        <ResourceStatusBadge resource="paymentLink" status={paymentLinkStatusCodes.PAID} label={row.original.status} />
      ),
  }),
  column.accessor("name", {
    header: () => <Header name="name" />,
    cell: (info) => info.getValue() ?? "—",
  }),
];

export function CustomerPaymentsTable({ rows }: { rows: TCustomerPayment[] }) {
  const t = useTranslations("customers.detail");
  // A customer exists only through a paid payment, so the list is never empty.
  return (
    <DataTable
      columns={columns}
      data={rows}
      getRowId={(row) => `${row.kind}:${row.id}`}
      empty={null}
      caption={t("paymentsCaption")}
    />
  );
}
