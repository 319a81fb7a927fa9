import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { DateTime } from "@/components/date-time";
import { LiveRefresh } from "@/components/live/live-refresh";
import { StatusBadge, type TStatusTone } from "@/components/status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { getReconcileEnv } from "@/lib/config/reconcile-env";
import { findRecentReconciliationRuns, type THealedItem } from "@/lib/reconcile/reconcile";

import { ReconcileNowButton } from "./reconcile-now-button";

const toneByStatus: Record<string, TStatusTone> = { RUNNING: "info", SUCCEEDED: "success", FAILED: "danger" };
// Enough to see what a run did; the log line of each run lists everything.
const maxHealedShown = 5;

const hrefByKind: Partial<Record<THealedItem["kind"], string>> = { pix_charge: "/pix", card_payment: "/payments" };

function HealedItem({ item }: { item: THealedItem }) {
  const label = `${item.from ?? "—"} → ${item.to}`;
  const base = hrefByKind[item.kind];
  return (
    <li className="truncate">
      {base ? (
        <Link href={`${base}/${encodeURIComponent(item.id)}`} className="font-mono underline-offset-4 hover:underline">
          {item.id}
        </Link>
      ) : (
        <span className="font-mono">{item.id}</span>
      )}{" "}
      <span className="text-muted-foreground">{label}</span>
    </li>
  );
}

/**
 * The last reconciliation runs with a "reconcile now" button, kept current through the live
 * `reconciliation` change. For the admin-only /webhooks page (the action checks ADMIN again).
 */
export async function ReconciliationPanel({ limit = 5 }: { limit?: number }) {
  const [runs, t] = await Promise.all([findRecentReconciliationRuns(limit), getTranslations("reconciliation")]);
  const { RECONCILE_INTERVAL_SECONDS: intervalSeconds, RECONCILE_WINDOW_HOURS: windowHours } = getReconcileEnv();

  return (
    <Card>
      <LiveRefresh kinds={["reconciliation"]} />
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1">
          <CardTitle>{t("title")}</CardTitle>
          <CardDescription>
            {intervalSeconds === 0
              ? t("scheduleOff", { windowHours })
              : t("schedule", { minutes: Math.max(1, Math.round(intervalSeconds / 60)), windowHours })}
          </CardDescription>
        </div>
        <ReconcileNowButton />
      </CardHeader>
      <CardContent>
        {runs.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("empty")}</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("columns.startedAt")}</TableHead>
                <TableHead>{t("columns.trigger")}</TableHead>
                <TableHead>{t("columns.status")}</TableHead>
                <TableHead>{t("columns.scanned")}</TableHead>
                <TableHead>{t("columns.healed")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {runs.map((run) => {
                const healed = run.healed as THealedItem[];
                return (
                  <TableRow key={run.id} data-testid="reconciliation-run">
                    <TableCell>
                      <DateTime value={run.startedAt} />
                    </TableCell>
                    <TableCell>
                      {run.trigger === "MANUAL"
                        ? t("trigger.MANUAL", { email: run.actorEmail ?? "—" })
                        : t("trigger.SCHEDULE")}
                    </TableCell>
                    <TableCell>
                      <StatusBadge status={run.status} toneByStatus={toneByStatus}>
                        {t(`status.${run.status}`)}
                      </StatusBadge>
                      {run.error ? <p className="mt-1 max-w-xs text-xs text-destructive">{t("readFailed")}</p> : null}
                    </TableCell>
                    <TableCell className="tabular-nums">
                      {t("scanned", {
                        charges: run.chargesScanned,
                        refunds: run.refundsScanned,
                        cards: run.cardPaymentsScanned,
                      })}
                    </TableCell>
                    <TableCell>
                      {healed.length === 0 ? (
                        <span className="text-muted-foreground">{t("nothingHealed")}</span>
                      ) : (
                        <ul className="grid max-w-sm gap-0.5 text-xs">
                          {healed.slice(0, maxHealedShown).map((item) => (
                            <HealedItem key={`${item.kind}:${item.id}`} item={item} />
                          ))}
                          {healed.length > maxHealedShown ? (
                            <li className="text-muted-foreground">
                              {t("more", { count: healed.length - maxHealedShown })}
                            </li>
                          ) : null}
                        </ul>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
