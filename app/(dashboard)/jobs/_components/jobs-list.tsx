import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";

import { DateTime } from "@/components/date-time";
import { StatusBadge, type TStatusTone } from "@/components/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { TJobAdminRow } from "@/lib/jobs/admin";
import { cn } from "@/lib/utils";

import { RunJobNowButton } from "./run-job-now-button";

const toneByStatus: Record<string, TStatusTone> = {
  RUNNING: "info",
  SUCCEEDED: "success",
  FAILED: "danger",
  ABANDONED: "warning",
  NEVER: "neutral",
};

type Translate = Awaited<ReturnType<typeof getTranslations<"jobs">>>;

function jobTitle(t: Translate, name: string): string {
  return t.has(`names.${name}` as "names.reconciliation") ? t(`names.${name}` as "names.reconciliation") : name;
}

function scheduleText(t: Translate, intervalMs: number | null): string {
  if (intervalMs === null) return t("schedule.onRequest");
  const seconds = Math.round(intervalMs / 1_000);
  if (seconds < 60) return t("schedule.seconds", { count: seconds });
  if (seconds < 3_600) return t("schedule.minutes", { count: Math.round(seconds / 60) });
  return t("schedule.hours", { count: Math.round(seconds / 3_600) });
}

function Status({ t, job }: { t: Translate; job: TJobAdminRow }) {
  const status = job.isRunning ? "RUNNING" : job.lastOutcome === "RUNNING" ? "ABANDONED" : (job.lastOutcome ?? "NEVER");
  return (
    <StatusBadge status={status} toneByStatus={toneByStatus}>
      {t(`status.${status}`)}
    </StatusBadge>
  );
}

function LastRun({ t, job }: { t: Translate; job: TJobAdminRow }) {
  if (!job.lastStartedAt) return <span className="text-muted-foreground">{t("neverRan")}</span>;
  return (
    <div className="grid gap-0.5 text-xs">
      <span>
        {t("startedAt")} <DateTime value={job.lastStartedAt} />
      </span>
      {job.lastFinishedAt ? (
        <span className="text-muted-foreground">
          {t("finishedAt")} <DateTime value={job.lastFinishedAt} />
        </span>
      ) : null}
    </div>
  );
}

function NextRun({ t, job }: { t: Translate; job: TJobAdminRow }) {
  if (job.runRequestedAt) return <span>{t("requestedBy", { email: job.runRequestedByEmail ?? t("someone") })}</span>;
  if (job.isRunning) return <span className="text-muted-foreground">{t("afterThisRun")}</span>;
  if (!job.nextRunAt) return <span className="text-muted-foreground">{t("noNextRun")}</span>;
  return <DateTime value={job.nextRunAt} />;
}

function Failures({ count }: { count: number }) {
  return <span className={cn("tabular-nums", count > 0 && "font-medium text-destructive")}>{count}</span>;
}

function LastError({ t, error }: { t: Translate; error: string }) {
  return (
    <p className="line-clamp-3 max-w-60 text-xs break-words text-destructive" title={error}>
      <span className="sr-only">{t("columns.lastError")}: </span>
      {error}
    </p>
  );
}

function Field({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("grid min-w-0 gap-0.5", className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  );
}

/** The jobs as cards on narrow screens and as a table from md up (no sideways scroll at 390 px). */
export async function JobsList({ jobs }: { jobs: TJobAdminRow[] }) {
  const t = await getTranslations("jobs");
  return (
    <>
      <ul className="grid gap-3 md:hidden">
        {jobs.map((job) => {
          const title = jobTitle(t, job.name);
          return (
            <li key={job.name} className="grid gap-3 rounded-md border p-4" data-testid="job-card">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="grid min-w-0 gap-0.5">
                  <h3 className="font-medium">{title}</h3>
                  <p className="text-xs text-muted-foreground">{scheduleText(t, job.intervalMs)}</p>
                </div>
                <Status t={t} job={job} />
              </div>
              <dl className="grid grid-cols-2 gap-3">
                <Field label={t("columns.lastRun")} className="col-span-2">
                  <LastRun t={t} job={job} />
                </Field>
                <Field label={t("columns.nextRun")}>
                  <NextRun t={t} job={job} />
                </Field>
                <Field label={t("columns.failures")}>
                  <Failures count={job.consecutiveFailures} />
                </Field>
              </dl>
              {job.lastError ? <LastError t={t} error={job.lastError} /> : null}
              <div>
                <RunJobNowButton name={job.name} label={title} isRequested={!!job.runRequestedAt} />
              </div>
            </li>
          );
        })}
      </ul>
      <div className="hidden md:block">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t("columns.job")}</TableHead>
              <TableHead>{t("columns.lastRun")}</TableHead>
              <TableHead>{t("columns.nextRun")}</TableHead>
              <TableHead>{t("columns.failures")}</TableHead>
              <TableHead>
                <span className="sr-only">{t("columns.actions")}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {jobs.map((job) => {
              const title = jobTitle(t, job.name);
              return (
                <TableRow key={job.name} data-testid="job-row">
                  <TableCell className="min-w-44">
                    <div className="font-medium">{title}</div>
                    <div className="text-xs text-muted-foreground">{scheduleText(t, job.intervalMs)}</div>
                  </TableCell>
                  <TableCell>
                    <div className="grid justify-items-start gap-1">
                      <Status t={t} job={job} />
                      <LastRun t={t} job={job} />
                    </div>
                  </TableCell>
                  <TableCell className="text-sm">
                    <NextRun t={t} job={job} />
                  </TableCell>
                  <TableCell>
                    <div className="grid gap-1">
                      <Failures count={job.consecutiveFailures} />
                      {job.lastError ? <LastError t={t} error={job.lastError} /> : null}
                    </div>
                  </TableCell>
                  <TableCell className="text-right">
                    <RunJobNowButton name={job.name} label={title} isRequested={!!job.runRequestedAt} />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
    </>
  );
}
