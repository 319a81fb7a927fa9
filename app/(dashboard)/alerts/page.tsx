import { BellIcon, SettingsIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { DataTableError } from "@/components/data-table/data-table-error";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { listAlertIncidents, markAlertsSeen } from "@/lib/alerts/incidents";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { log } from "@/lib/log";

import { IncidentList } from "./_components/incident-list";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("alerts");
  return { title: t("title") };
}

// No loading.tsx above this page: a visitor without the permission must get forbidden() as a real 403 status.
export default async function AlertsPage() {
  const user = await requirePermission("health.view");
  const t = await getTranslations("alerts");
  let incidents: Awaited<ReturnType<typeof listAlertIncidents>> | null = null;
  try {
    incidents = await listAlertIncidents();
    await markAlertsSeen(user.id);
  } catch (error) {
    log.error({ err: error }, "alerts page: reading the incidents failed");
  }

  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader
        title={t("title")}
        description={t("description")}
        className="mb-0"
        actions={
          can(user, "alerts.manage") ? (
            <Button asChild variant="outline">
              <Link href="/alerts/rules">
                <SettingsIcon aria-hidden="true" />
                {t("manageRules")}
              </Link>
            </Button>
          ) : null
        }
      />
      {!incidents ? (
        <DataTableError />
      ) : incidents.open.length + incidents.resolved.length === 0 ? (
        <EmptyState icon={BellIcon} title={t("empty.title")} description={t("empty.description")} />
      ) : (
        <>
          <Card className="min-w-0">
            <CardHeader>
              <CardTitle>{t("openTitle")}</CardTitle>
            </CardHeader>
            <CardContent className="min-w-0">
              {incidents.open.length === 0 ? (
                <p className="text-sm text-muted-foreground">{t("noneOpen")}</p>
              ) : (
                <IncidentList incidents={incidents.open} label={t("openTitle")} />
              )}
            </CardContent>
          </Card>
          {incidents.resolved.length > 0 ? (
            <Card className="min-w-0">
              <CardHeader>
                <CardTitle>{t("resolvedTitle")}</CardTitle>
              </CardHeader>
              <CardContent className="min-w-0">
                <IncidentList incidents={incidents.resolved} label={t("resolvedTitle")} />
              </CardContent>
            </Card>
          ) : null}
        </>
      )}
    </div>
  );
}
