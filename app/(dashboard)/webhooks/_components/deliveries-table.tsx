"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import type { TDeliveryListRow } from "@/lib/webhooks/history";
import { webhookEventKey } from "@/lib/webhooks/schemas";

import { DeliveryOutcomeBadge } from "./delivery-outcome-badge";

const column = createDataTableColumnHelper<TDeliveryListRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("webhooks.deliveries.columns");
  return <>{t(name)}</>;
}

function EventCell({ row }: { row: TDeliveryListRow }) {
  const t = useTranslations("webhooks");
  if (!row.event) return <span className="text-muted-foreground">—</span>;
  const key = webhookEventKey(row.event);
  return (
    <div className="flex flex-col gap-0.5">
      <span>{t.has(`events.${key}`) ? t(`events.${key}`) : row.event}</span>
      {row.isReplay ? <span className="text-xs text-muted-foreground">{t("deliveries.replay")}</span> : null}
    </div>
  );
}

const columns: TDataTableColumn<TDeliveryListRow>[] = [
  column.accessor("receivedAt", {
    header: () => <Header name="receivedAt" />,
    cell: ({ row }) => (
      <Link
        href={`/webhooks/deliveries/${row.original.id}`}
        className="text-primary underline-offset-4 hover:underline"
      >
        <DateTime value={row.original.receivedAt} />
      </Link>
    ),
  }),
  column.accessor("event", {
    header: () => <Header name="event" />,
    cell: ({ row }) => <EventCell row={row.original} />,
  }),
  column.accessor("outcome", {
    header: () => <Header name="outcome" />,
    cell: (info) => <DeliveryOutcomeBadge outcome={info.getValue()} />,
  }),
  column.accessor("resourceId", {
    header: () => <Header name="resource" />,
    cell: (info) => <span className="font-mono text-xs break-all">{info.getValue() ?? "—"}</span>,
  }),
  column.accessor("deliveryId", {
    header: () => <Header name="deliveryId" />,
    cell: (info) => <span className="font-mono text-xs break-all">{info.getValue() ?? "—"}</span>,
  }),
];

export function DeliveriesTable({ rows, empty }: { rows: TDeliveryListRow[]; empty: ReactNode }) {
  const t = useTranslations("webhooks.deliveries");
  return <DataTable columns={columns} data={rows} getRowId={(row) => row.id} empty={empty} caption={t("caption")} />;
}
