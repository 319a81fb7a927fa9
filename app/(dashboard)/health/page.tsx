import type { Metadata } from "next";
import Link from "next/link";
import { getLocale, getTranslations } from "next-intl/server";

import { DataTableError } from "@/components/data-table/data-table-error";
import { DateTime } from "@/components/date-time";
import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { requirePermission } from "@/lib/auth/session";
import { readHealthReport, type THealthReport } from "@/lib/health/health";
import { log } from "@/lib/log";

import { LatencyChart } from "./_components/latency-chart";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("health");
  return { title: t("title") };
}

const linkClass = "underline-offset-4 hover:underline focus-visible:underline";

function percent(rate: number | null, locale: string): string {
  return rate === null
    ? "—"
    : new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(rate);
}

function hourLabel(at: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", timeZone: "America/Sao_Paulo" }).format(
    at,
  );
}

function Figure({ title, href, lines }: { title: string; href: string; lines: string[] }) {
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>
          <Link href={href} className={linkClass}>
            {title}
          </Link>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-1 text-sm">
        {lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </CardContent>
    </Card>
  );
}

// No loading.tsx above this page: a visitor without health.view must get forbidden() as a real 403 status.
export default async function HealthPage() {
  await requirePermission("health.view");
  const [t, locale] = await Promise.all([getTranslations("health"), getLocale()]);
  let report: THealthReport | null = null;
  try {
    report = await readHealthReport();
  } catch (error) {
    log.error({ err: error }, "health page: reading the figures failed");
  }
  if (!report)
    return (
      <div className="grid min-w-0 gap-6">
        <PageHeader title={t("title")} description={t("description")} className="mb-0" />
        <DataTableError />
      </div>
    );
  const { refusals, drift } = report;
  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader title={t("title")} description={t("description")} className="mb-0" />
      <section className="grid min-w-0 gap-4 sm:grid-cols-3" aria-label={t("title")}>
        <Figure
          title={t("figures.certificate")}
          href="/settings"
          lines={[
            report.certificateDaysLeft === null
              ? t("figures.certificateUnknown")
              : t("figures.certificateDays", { days: report.certificateDaysLeft }),
          ]}
        />
        <Figure
          title={t("figures.refusals")}
          href="/payments?status=refused"
          lines={
            refusals.week.attempts === 0
              ? [t("figures.refusalsNone")]
              : [
                  t("figures.refusalsDay", { rate: percent(refusals.day.rate, locale) }),
                  t("figures.refusalsWeek", { rate: percent(refusals.week.rate, locale) }),
                ]
          }
        />
        <Figure
          title={t("figures.drift")}
          href="/health/drift"
          lines={[
            t("figures.driftFound", { count: drift.found }),
            t("figures.driftHealed", { count: drift.healed }),
            t("figures.driftOpen", { count: drift.open }),
          ]}
        />
      </section>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>{t("gateway.title")}</CardTitle>
          <CardDescription>{t("gateway.description")}</CardDescription>
        </CardHeader>
        <CardContent className="grid min-w-0 gap-4">
          {report.gateway.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("gateway.empty")}</p>
          ) : (
            <>
              <LatencyChart
                label={t("gateway.chartLabel")}
                points={report.gatewaySeries.map((step) => ({
                  hour: hourLabel(step.at, locale),
                  p50: step.p50Ms,
                  p99: step.p99Ms,
                }))}
              />
              <Table aria-label={t("gateway.title")}>
                <TableHeader>
                  <TableRow>
                    <TableHead>{t("gateway.operation")}</TableHead>
                    <TableHead className="text-right">{t("gateway.calls")}</TableHead>
                    <TableHead className="text-right">{t("gateway.errorRate")}</TableHead>
                    <TableHead className="text-right">{t("gateway.clientErrors")}</TableHead>
                    <TableHead className="text-right">{t("gateway.p50")}</TableHead>
                    <TableHead className="text-right">{t("gateway.p99")}</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {report.gateway.map((row) => (
                    <TableRow key={row.operation}>
                      <TableCell className="font-mono text-xs">{row.operation}</TableCell>
                      <TableCell className="text-right">{row.calls}</TableCell>
                      <TableCell className="text-right">{percent(row.errorRate, locale)}</TableCell>
                      <TableCell className="text-right">{row.clientErrors}</TableCell>
                      <TableCell className="text-right">{row.p50Ms ?? "—"}</TableCell>
                      <TableCell className="text-right">{row.p99Ms ?? "—"}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </>
          )}
        </CardContent>
      </Card>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>{t("webhooks.title")}</CardTitle>
          <CardDescription>{t("webhooks.description")}</CardDescription>
        </CardHeader>
        <CardContent className="min-w-0">
          {report.webhooks.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("webhooks.empty")}</p>
          ) : (
            <Table aria-label={t("webhooks.title")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("webhooks.endpoint")}</TableHead>
                  <TableHead className="text-right">{t("webhooks.received")}</TableHead>
                  <TableHead className="text-right">{t("webhooks.applied")}</TableHead>
                  <TableHead className="text-right">{t("webhooks.failed")}</TableHead>
                  <TableHead className="text-right">{t("webhooks.refused")}</TableHead>
                  <TableHead className="text-right">{t("webhooks.lagP50")}</TableHead>
                  <TableHead className="text-right">{t("webhooks.lagP99")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {report.webhooks.map((row) => {
                  const scope = row.webhookId ? `&webhookId=${row.webhookId}` : "";
                  return (
                    <TableRow key={row.webhookId ?? "unknown"}>
                      <TableCell className="max-w-48 break-all text-xs">
                        {row.url ?? t("webhooks.unknownEndpoint")}
                      </TableCell>
                      <TableCell className="text-right">
                        <Link className={linkClass} href={`/webhooks/deliveries?${scope.slice(1)}`}>
                          {row.received}
                        </Link>
                      </TableCell>
                      <TableCell className="text-right">
                        <Link className={linkClass} href={`/webhooks/deliveries?outcome=APPLIED${scope}`}>
                          {row.applied}
                        </Link>
                      </TableCell>
                      <TableCell className="text-right">
                        <Link className={linkClass} href={`/webhooks/deliveries?outcome=FAILED${scope}`}>
                          {row.failed}
                        </Link>
                      </TableCell>
                      <TableCell className="text-right">
                        <Link className={linkClass} href={`/webhooks/deliveries?outcome=REJECTED_SIGNATURE${scope}`}>
                          {row.refused}
                        </Link>
                      </TableCell>
                      <TableCell className="text-right">{row.lagP50Ms ?? "—"}</TableCell>
                      <TableCell className="text-right">{row.lagP99Ms ?? "—"}</TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>

      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>
            <Link href="/jobs" className={linkClass}>
              {t("jobs.title")}
            </Link>
          </CardTitle>
          <CardDescription>{t("jobs.description")}</CardDescription>
        </CardHeader>
        <CardContent className="min-w-0">
          {report.jobs.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t("jobs.empty")}</p>
          ) : (
            <Table aria-label={t("jobs.title")}>
              <TableHeader>
                <TableRow>
                  <TableHead>{t("jobs.job")}</TableHead>
                  <TableHead>{t("jobs.lastRun")}</TableHead>
                  <TableHead className="text-right">{t("jobs.failures")}</TableHead>
                  <TableHead>{t("jobs.nextRun")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {report.jobs.map((job) => (
                  <TableRow key={job.name}>
                    <TableCell className="font-mono text-xs">{job.name}</TableCell>
                    <TableCell>
                      {job.lastStartedAt ? <DateTime value={job.lastStartedAt.toISOString()} /> : t("jobs.never")}
                      {job.lastOutcome ? ` · ${job.lastOutcome}` : ""}
                    </TableCell>
                    <TableCell className="text-right">{job.consecutiveFailures}</TableCell>
                    <TableCell>{job.nextRunAt ? <DateTime value={job.nextRunAt.toISOString()} /> : "—"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
