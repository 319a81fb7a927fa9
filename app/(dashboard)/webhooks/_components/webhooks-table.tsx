"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { StatusBadge } from "@/components/status-badge";
import { Badge } from "@/components/ui/badge";
import type { TWebhookAdminRow } from "@/lib/webhooks/admin";
import { webhookEventKey } from "@/lib/webhooks/schemas";

import { WebhookRowActions } from "./webhook-row-actions";

const column = createDataTableColumnHelper<TWebhookAdminRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("webhooks.list.columns");
  return <>{t(name)}</>;
}

function UrlCell({ row }: { row: TWebhookAdminRow }) {
  const t = useTranslations("webhooks.list");
  return (
    <div className="flex min-w-0 flex-col gap-0.5 md:max-w-sm md:min-w-44">
      <span className="font-mono text-xs break-all">{row.url}</span>
      {row.isOwnReceiver ? <span className="text-xs text-muted-foreground">{t("ownReceiver")}</span> : null}
      {row.replacesUpstreamId ? (
        <span className="text-xs text-muted-foreground">
          {t("replaces", { id: row.replacesUpstreamId.slice(0, 8) })}
        </span>
      ) : null}
    </div>
  );
}

function EventsCell({ events }: { events: string[] }) {
  const t = useTranslations("webhooks.events");
  return (
    <div className="flex flex-wrap gap-1">
      {events.map((event) => (
        <Badge key={event} tone="outline" title={event}>
          {t.has(webhookEventKey(event)) ? t(webhookEventKey(event)) : event}
        </Badge>
      ))}
    </div>
  );
}

function StatusCell({ row }: { row: TWebhookAdminRow }) {
  const t = useTranslations("webhooks.list.status");
  const status = !row.isActive ? "inactive" : row.retireAt ? "retiring" : "active";
  return (
    <div className="flex flex-col gap-1">
      <StatusBadge status={status} toneByStatus={{ active: "success", retiring: "warning", inactive: "neutral" }}>
        {t(status)}
      </StatusBadge>
      {status === "retiring" && row.retireAt ? (
        <span className="text-xs text-muted-foreground">
          {t("retiresAt")} <DateTime value={row.retireAt} />
        </span>
      ) : null}
    </div>
  );
}

function SecretCell({ hasSecret }: { hasSecret: boolean }) {
  const t = useTranslations("webhooks.list.secret");
  return (
    <Badge tone={hasSecret ? "info" : "warning"} title={hasSecret ? undefined : t("missingHint")}>
      {t(hasSecret ? "held" : "missing")}
    </Badge>
  );
}

function DeliveriesCell({ row }: { row: TWebhookAdminRow }) {
  const t = useTranslations("webhooks.list");
  if (!row.lastDeliveryAt) return <span className="text-muted-foreground">{t("neverDelivered")}</span>;
  return (
    <div className="flex flex-col gap-0.5">
      <DateTime value={row.lastDeliveryAt} />
      <span className="text-xs text-muted-foreground tabular-nums">
        {row.successRate24h === null
          ? t("noDeliveries24h")
          : t("successRate", { rate: Math.round(row.successRate24h * 100), count: row.deliveries24h })}
      </span>
    </div>
  );
}

const columns: TDataTableColumn<TWebhookAdminRow>[] = [
  column.accessor("url", {
    header: () => <Header name="url" />,
    cell: ({ row }) => <UrlCell row={row.original} />,
    meta: { card: "title" },
  }),
  column.accessor("events", {
    header: () => <Header name="events" />,
    cell: (info) => <EventsCell events={info.getValue()} />,
    meta: { card: "wide" },
  }),
  column.accessor("isActive", {
    header: () => <Header name="status" />,
    cell: ({ row }) => <StatusCell row={row.original} />,
  }),
  column.accessor("hasSecret", {
    header: () => <Header name="secret" />,
    cell: (info) => <SecretCell hasSecret={info.getValue()} />,
  }),
  column.accessor("lastDeliveryAt", {
    header: () => <Header name="lastDelivery" />,
    cell: ({ row }) => <DeliveriesCell row={row.original} />,
  }),
  column.accessor("createdAt", {
    header: () => <Header name="createdAt" />,
    cell: (info) => <DateTime value={info.getValue()} />,
    // Between tablet and wide desktop the row must fit its card with the menu: the least needed column goes.
    meta: { className: "md:max-2xl:hidden" },
  }),
  column.display({
    id: "actions",
    header: () => <Header name="actions" />,
    cell: ({ row }) => (
      <WebhookRowActions
        webhook={{
          upstreamId: row.original.upstreamId,
          localId: row.original.localId,
          url: row.original.url,
          events: row.original.events,
          isActive: row.original.isActive,
          isRetiring: row.original.retireAt !== null,
        }}
      />
    ),
    meta: { className: "text-right", card: "actions", isHeaderVisuallyHidden: true },
  }),
];

export function WebhooksTable({ rows, empty }: { rows: TWebhookAdminRow[]; empty: ReactNode }) {
  const t = useTranslations("webhooks.list");
  return (
    <DataTable columns={columns} data={rows} getRowId={(row) => row.upstreamId} empty={empty} caption={t("caption")} />
  );
}
