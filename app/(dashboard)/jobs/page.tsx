import { TimerIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { DataTableError } from "@/components/data-table/data-table-error";
import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { requirePermission } from "@/lib/auth/session";
import { listJobsForAdmin, type TJobsOverview } from "@/lib/jobs/admin";
import { log } from "@/lib/log";

import { JobsList } from "./_components/jobs-list";
import { RefreshWhileBusy } from "./_components/refresh-while-busy";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("jobs");
  return { title: t("title") };
}

// No loading.tsx above this page: a STAFF visitor must get forbidden() as a real 403 status.
export default async function JobsPage() {
  await requirePermission("jobs.run");
  const t = await getTranslations("jobs");
  let overview: TJobsOverview | null = null;
  try {
    overview = await listJobsForAdmin();
  } catch (error) {
    log.error({ err: error }, "jobs page: reading the job states failed");
  }

  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader title={t("title")} description={t("description")} className="mb-0" />
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>{t("listTitle")}</CardTitle>
          {overview ? <CardDescription>{t(`mode.${overview.mode}`)}</CardDescription> : null}
        </CardHeader>
        <CardContent className="min-w-0">
          {!overview ? (
            <DataTableError />
          ) : overview.jobs.length === 0 ? (
            <EmptyState icon={TimerIcon} title={t("empty.title")} description={t("empty.description")} />
          ) : (
            <>
              <RefreshWhileBusy isBusy={overview.jobs.some((job) => job.isRunning || job.runRequestedAt)} />
              <JobsList jobs={overview.jobs} />
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
