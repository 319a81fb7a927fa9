import { getTranslations } from "next-intl/server";

import { LiveRefresh } from "@/components/live/live-refresh";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { getReconcileEnv } from "@/lib/config/reconcile-env";
import { listMirrorDrift } from "@/lib/reconcile/drift";
import { findRecentReconciliationRuns, readScanned, type THealedItem } from "@/lib/reconcile/reconcile";

import { MirrorDriftList } from "./mirror-drift-list";

import { ReconcileNowButton } from "./reconcile-now-button";
import { ReconciliationRunsTable } from "./reconciliation-runs-table";

/**
 * The last reconciliation runs with a "reconcile now" button, kept current through the live
 * `reconciliation` change. For the admin-only /webhooks page (the action checks ADMIN again).
 */
export async function ReconciliationPanel({ limit = 5 }: { limit?: number }) {
  const [runs, drifts, t] = await Promise.all([
    findRecentReconciliationRuns(limit),
    listMirrorDrift({ limit: 10 }),
    getTranslations("reconciliation"),
  ]);
  const {
    RECONCILE_INTERVAL_SECONDS: intervalSeconds,
    RECONCILE_WINDOW_HOURS: windowHours,
    RECONCILE_OLDER_CHECKS: olderChecks,
  } = getReconcileEnv();

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
            {olderChecks > 0 && ` ${t("olderChecks", { count: olderChecks })}`}
          </CardDescription>
        </div>
        <ReconcileNowButton />
      </CardHeader>
      <CardContent className="grid gap-6">
        <ReconciliationRunsTable
          rows={runs.map((run) => ({
            id: run.id,
            startedAt: run.startedAt,
            trigger: run.trigger,
            actorEmail: run.actorEmail,
            status: run.status,
            error: run.error,
            scanned: readScanned(run),
            healed: run.healed as THealedItem[],
          }))}
          empty={<p className="text-sm text-muted-foreground">{t("empty")}</p>}
        />
        <MirrorDriftList drifts={drifts} />
      </CardContent>
    </Card>
  );
}
