"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { BellIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";

import { useLiveRefresh } from "@/components/live/live-refresh";
import { useIsLive } from "@/components/live/use-live-changes";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Spinner } from "@/components/ui/spinner";

import { markAlertsSeenAction } from "../alerts/actions";
import { AlertIncidentText, type TAlertIncidentItem } from "./alert-incident-text";

type TAlertsSummary = { unread: number; open: TAlertIncidentItem[]; resolved: TAlertIncidentItem[] };

const alertsQueryKey = ["alerts", "bell"];
// The live stream says when an incident opens or resolves; only while it is down does the bell poll.
const pollWhileOfflineMs = 15_000;

async function fetchAlerts(signal: AbortSignal): Promise<TAlertsSummary> {
  const response = await fetch("/api/alerts", { signal, cache: "no-store" });
  if (!response.ok) throw new Error(`alerts: ${response.status}`);
  return (await response.json()) as TAlertsSummary;
}

export function AlertsBell() {
  const t = useTranslations("alerts.bell");
  const queryClient = useQueryClient();
  useLiveRefresh({ kinds: ["alert_incident"] }, { queryKey: alertsQueryKey });
  const isLive = useIsLive();
  const alerts = useQuery({
    queryKey: alertsQueryKey,
    queryFn: ({ signal }) => fetchAlerts(signal),
    refetchInterval: isLive ? false : pollWhileOfflineMs,
  });
  const unread = alerts.data?.unread ?? 0;
  const label = unread > 0 ? t("labelUnread", { count: unread }) : t("label");

  function markSeen(isOpen: boolean) {
    if (!isOpen) return;
    // Figures of an open incident change at every evaluation without a live update: read afresh on opening.
    if (unread === 0) return void queryClient.invalidateQueries({ queryKey: alertsQueryKey });
    void markAlertsSeenAction({ seenAt: new Date().toISOString() }).then(() =>
      queryClient.invalidateQueries({ queryKey: alertsQueryKey }),
    );
  }

  return (
    <DropdownMenu onOpenChange={markSeen}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={label} title={label} data-unread={unread}>
          <BellIcon aria-hidden="true" />
          {unread > 0 ? (
            <span
              aria-hidden="true"
              className="absolute -top-0.5 -right-0.5 flex min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-4 font-semibold text-white tabular-nums"
            >
              {unread > 99 ? "99+" : unread}
            </span>
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-[min(22rem,calc(100vw-1.5rem))]">
        <DropdownMenuLabel>{t("title")}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {alerts.isPending ? (
          <div className="flex justify-center p-4" role="status" aria-label={t("title")}>
            <Spinner />
          </div>
        ) : alerts.isError ? (
          <div className="grid gap-2 p-2 text-sm">
            <p>{t("error")}</p>
            <Button variant="outline" size="sm" onClick={() => void alerts.refetch()}>
              {t("retry")}
            </Button>
          </div>
        ) : alerts.data.open.length === 0 ? (
          <p className="p-2 text-sm text-muted-foreground">{t("empty")}</p>
        ) : (
          alerts.data.open.slice(0, 5).map((incident) => (
            <DropdownMenuItem key={incident.id} asChild>
              <Link href={`/alerts?incident=${incident.id}`} className="items-start">
                <AlertIncidentText incident={incident} />
              </Link>
            </DropdownMenuItem>
          ))
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/alerts">{t("viewAll")}</Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
